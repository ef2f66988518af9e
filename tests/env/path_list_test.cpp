#include <catch2/catch.hpp>

#include "cudnnctl/env/path_list.hpp"

using namespace cudnnctl;

namespace {
const auto lookup = [](const std::string& n) -> std::optional<std::string> {
  if (n == "CUDA_PATH") return std::string("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4");
  if (n == "SystemRoot") return std::string("C:\\Windows");
  return std::nullopt;
};
} // namespace

TEST_CASE("split and join keep every entry, empty ones and quotes included", "[path_list]") {
  const std::string win = R"(C:\a;;"C:\Program Files\b;c";C:\d\;)";
  const auto parts = split_path_list(win, PathFlavor::windows);
  REQUIRE(parts.size() == 5);
  CHECK(parts[1].empty());
  CHECK(parts[2] == R"("C:\Program Files\b;c")");  // a ';' inside quotes does not split
  CHECK(parts[4].empty());                          // the trailing separator
  CHECK(join_path_list(parts, PathFlavor::windows) == win);
  const auto posix = split_path_list("/a::/b/", PathFlavor::posix);
  CHECK(posix == std::vector<std::string>{"/a", "", "/b/"});
  CHECK(split_path_list("", PathFlavor::posix).empty());
}

TEST_CASE("values longer than 2047 and 32767 characters are never cut", "[path_list]") {
  for (std::size_t total : {3000u, 40000u}) {
    std::vector<std::string> entries;
    std::size_t len = 0;
    for (int i = 0; len < total; ++i) {
      entries.push_back("C:\\tools\\package-number-" + std::to_string(i) + "\\bin");
      len += entries.back().size() + 1;
    }
    const auto value = join_path_list(entries, PathFlavor::windows);
    CHECK(value.size() >= total);
    CHECK(split_path_list(value, PathFlavor::windows) == entries);
    const auto fix = put_first(entries, "C:\\CUDA\\v13.0\\bin\\x64", PathFlavor::windows);
    CHECK(fix.after.size() == entries.size() + 1);
    CHECK(join_path_list(fix.after, PathFlavor::windows).size() == value.size() + 1 + std::string("C:\\CUDA\\v13.0\\bin\\x64").size());
  }
}

TEST_CASE("Windows entries compare case-, slash-, quote- and trailing-separator-insensitively, %VAR% expanded", "[path_list]") {
  const std::string folder = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin";
  const std::vector<std::string> entries = {
      "C:\\Windows\\system32",
      "c:/program files/nvidia gpu computing toolkit/cuda/v12.4/BIN/",
      "%CUDA_PATH%\\bin",
      "\"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin\"",
      "",
      "C:\\Python311\\Scripts",
      "%UNKNOWN_VAR%\\bin",
  };
  const auto fix = put_first(entries, folder, PathFlavor::windows, lookup);
  CHECK(fix.after == std::vector<std::string>{folder, "C:\\Windows\\system32", "C:\\Python311\\Scripts", "%UNKNOWN_VAR%\\bin"});
  CHECK(fix.dropped.size() == 4);  // three spellings of the folder and the empty entry
  CHECK(fix.changed);
  // %VAR% references stay unexpanded in what is written
  const auto keep = put_first({"%CUDA_PATH%\\bin", "C:\\x"}, "%CUDA_PATH%\\bin", PathFlavor::windows, lookup);
  CHECK_FALSE(keep.changed);
  CHECK(keep.after.front() == "%CUDA_PATH%\\bin");
  CHECK(path_key("C:\\", PathFlavor::windows) == "c:\\");
  CHECK(expand_windows_vars("%SystemRoot%\\System32;%NOPE%", lookup) == "C:\\Windows\\System32;%NOPE%");
}

TEST_CASE("POSIX entries: the folder first, duplicates (trailing slash) and empty entries (the current folder) dropped", "[path_list]") {
  const auto fix = put_first({"/opt/old/lib", "", "/usr/local/cuda/lib64/", "/x"}, "/usr/local/cuda/lib64", PathFlavor::posix);
  CHECK(fix.after == std::vector<std::string>{"/usr/local/cuda/lib64", "/opt/old/lib", "/x"});
  CHECK(fix.dropped == std::vector<std::string>{"", "/usr/local/cuda/lib64/"});
  CHECK_FALSE(put_first({"/a", "/b"}, "/a", PathFlavor::posix).changed);
  CHECK(put_first({"/a", "/A"}, "/a", PathFlavor::posix).after.size() == 2);  // POSIX is case-sensitive
}

TEST_CASE("the diff shows what moves, what goes and what stays", "[path_list]") {
  const auto d = diff_lines({"/old", "/cuda", "/x"}, {"/cuda", "/old", "/x"});
  CHECK_THAT(d, Catch::Contains("+ /cuda") && Catch::Contains("  /x"));
  CHECK_THAT(diff_lines({"/a", "/dup"}, {"/a"}), Catch::Contains("- /dup"));
}
