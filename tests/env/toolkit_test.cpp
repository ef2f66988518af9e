#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <filesystem>
#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/env/toolkit.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

namespace {
void touch(const fs::path& p, const std::string& text = "x") {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
// Fake toolkit trees in the layouts NVIDIA's installers lay out.
fs::path windows_tree(const fs::path& base, const std::string& version, bool bin_x64) {
  const auto root = base / ("v" + version);
  touch(root / "version.json", R"({"cuda": {"name": "CUDA SDK", "version": ")" + version + R"(.1"}})");
  touch(root / "include/cuda.h");
  touch(root / (bin_x64 ? "bin/x64/cudart64_13.dll" : "bin/cudart64_12.dll"));
  touch(root / "bin/nvcc.exe");
  touch(root / "lib/x64/cudart.lib");
  return root;
}
fs::path linux_tree(const fs::path& base, const std::string& name, const std::string& cuda_h_version) {
  const auto root = base / name;
  touch(root / "include/cuda.h", "#define CUDA_VERSION " + cuda_h_version + "\n");
  touch(root / "bin/nvcc");
  touch(root / "targets/x86_64-linux/lib/libcudart.so.12");
  fs::create_directory_symlink("targets/x86_64-linux/lib", root / "lib64");
  return root;
}
} // namespace

TEST_CASE("toolkit trees: version, platform and folders from the layout", "[toolkit]") {
  TempDir tmp;
  const auto w118 = windows_tree(tmp.path(), "11.8", false);
  const auto w130 = windows_tree(tmp.path(), "13.0", true);
  touch(tmp.path() / "v10.2/version.txt", "CUDA Version 10.2.89\n");
  touch(tmp.path() / "v10.2/include/cuda.h");
  const auto l124 = linux_tree(tmp.path(), "cuda-12.4", "12040");

  const auto a = read_toolkit(w118.string(), "test");
  REQUIRE(a);
  CHECK(a->version == "11.8");
  CHECK(a->version_source == "version.json");
  CHECK(a->os == Os::windows);
  CHECK(a->dll_dir == "bin");
  CHECK(a->lib_dir == "lib/x64");
  const auto b = read_toolkit(w130.string(), "test");
  REQUIRE(b);
  CHECK(b->dll_dir == "bin/x64");  // CUDA 13 keeps its DLLs in bin\x64
  // Windows on Arm (CUDA 13.4): DLLs in bin\arm64, import libraries in lib\arm64; only the arm64 folders exist
  touch(tmp.path() / "woa/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "13.4.0"}})");
  touch(tmp.path() / "woa/include/cuda.h");
  touch(tmp.path() / "woa/bin/arm64/cudart64_13.dll");
  const auto woa = read_toolkit((tmp.path() / "woa").string(), "test");
  REQUIRE(woa);
  CHECK(woa->os == Os::windows);
  CHECK(woa->dll_dir == "bin/arm64");
  CHECK(woa->lib_dir == "lib/arm64");
  const auto c = read_toolkit((tmp.path() / "v10.2").string(), "test");
  REQUIRE(c);
  CHECK(c->version == "10.2");
  CHECK(c->version_source == "version.txt");
  const auto d = read_toolkit(l124.string(), "test");
  REQUIRE(d);
  CHECK(d->version == "12.4");
  CHECK(d->version_source == "include/cuda.h");
  CHECK(d->os == Os::linux_os);
  CHECK(d->lib_dir == "lib64");

  CHECK(read_toolkit((tmp.path() / "nothing").string(), "CUDA_PATH").error().code == ErrorCode::file_not_found);
  fs::create_directories(tmp.path() / "empty");
  CHECK_THAT(read_toolkit((tmp.path() / "empty").string(), "CUDA_PATH").error().message, Catch::Contains("not a CUDA toolkit"));
}

TEST_CASE("a toolkit's runtime folder, CUDA major and install folders are its accessors", "[toolkit]") {
  TempDir tmp;
  const auto w118 = read_toolkit(windows_tree(tmp.path(), "11.8", false).string(), "test");
  const auto w130 = read_toolkit(windows_tree(tmp.path(), "13.0", true).string(), "test");
  const auto l124 = read_toolkit(linux_tree(tmp.path(), "cuda-12.4", "12040").string(), "test");
  REQUIRE(w118);
  REQUIRE(w130);
  REQUIRE(l124);
  // the runtime libraries: the DLL folder on Windows (bin\x64 on CUDA 13), lib64 on Linux (not lib/x64, the import libraries)
  CHECK(w118->runtime_dir() == "bin");
  CHECK(w130->runtime_dir() == "bin/x64");
  CHECK(l124->runtime_dir() == "lib64");
  CHECK(fs::path(l124->runtime_library_dir()) == tmp.path() / "cuda-12.4" / "lib64");
  CHECK(fs::path(w130->runtime_library_dir()) == tmp.path() / "v13.0" / "bin/x64");
  // a Windows tree with no DLL yet (an image being prepared): bin, as the installers lay it out
  Toolkit bare = *w118;
  bare.dll_dir.clear();
  CHECK(bare.runtime_dir() == "bin");

  CHECK(w130->cuda_major() == 13u);
  CHECK(l124->cuda_major() == 12u);
  Toolkit unread = *l124;
  unread.version.clear();
  CHECK_FALSE(unread.cuda_major());
  unread.version = "x.1";
  CHECK_FALSE(unread.cuda_major());

  CHECK(l124->install_dirs() == std::vector<std::string>{"include", "lib64"});
  CHECK(w118->install_dirs() == std::vector<std::string>{"include", "lib/x64", "bin"});
  // CUDA 13: bin\x64 gets the DLLs, bin is listed too (an older cuDNN DLL there shadows them: removed)
  CHECK(w130->install_dirs() == std::vector<std::string>{"include", "lib/x64", "bin/x64", "bin"});

  CHECK(windows_toolkit_dll_dirs("C:\\CUDA\\v13.0") ==
        std::vector<std::string>{"C:\\CUDA\\v13.0\\bin\\x64", "C:\\CUDA\\v13.0\\bin\\arm64", "C:\\CUDA\\v13.0\\bin"});
}

TEST_CASE("this image's real toolkit reads as CUDA 13.0 for Linux", "[toolkit]") {
  if (!fs::exists("/usr/local/cuda/include/cuda.h")) CUDNNCTL_SKIP("no CUDA toolkit in /usr/local/cuda on this machine");
  const auto t = read_toolkit("/usr/local/cuda", "test");
  REQUIRE(t);
  CHECK(t->version == "13.0");
  CHECK(t->os == Os::linux_os);
  CHECK(t->lib_dir == "lib64");
}

TEST_CASE("toolkits are found in precedence order and chosen by the archive's CUDA major", "[toolkit]") {
  TempDir tmp;
  const auto w118 = windows_tree(tmp.path(), "11.8", false);
  const auto w124 = windows_tree(tmp.path(), "12.4", false);
  const auto l130 = linux_tree(tmp.path(), "cuda-13.0", "13000");
  fs::create_directory_symlink(l130, tmp.path() / "cuda");
  platform::MapEnvironment env({{"CUDA_PATH", w124.string()},
                                {"CUDA_PATH_V11_8", w118.string()},
                                {"CUDA_PATH_V12_4", w124.string()},
                                {"CUDA_HOME", (tmp.path() / "missing").string()},
                                {"PATH", "/nowhere:" + (l130 / "bin").string()}});
  std::vector<std::string> notes;
  const auto found = find_toolkits(env, std::nullopt, &notes, std::vector<std::string>{(tmp.path() / "cuda").string()});
  REQUIRE(found.size() == 3);  // CUDA_PATH_V12_4 and the link to cuda-13.0 are the same folders
  CHECK(found[0].found_by == "CUDA_PATH");
  CHECK(found[1].found_by == "CUDA_PATH_V11_8");
  CHECK_THAT(found[2].found_by, Catch::Contains("nvcc on PATH"));
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains("CUDA_HOME") && Catch::Contains("does not exist"));

  const auto for12 = choose_toolkit(found, std::string("12"));
  REQUIRE(for12.toolkit);
  CHECK(for12.toolkit->version == "12.4");
  const auto for11 = choose_toolkit(found, std::string("11"));
  REQUIRE(for11.toolkit);
  CHECK(for11.toolkit->version == "11.8");
  CHECK_THAT(for11.reason, Catch::Contains("CUDA 11"));
  const auto for9 = choose_toolkit(found, std::string("9"));
  CHECK_FALSE(for9.toolkit);
  CHECK_THAT(for9.reason, Catch::Contains("none of the 3"));

  const auto explicit_path = find_toolkits(env, w118.string(), nullptr, std::vector<std::string>{});
  const auto chosen = choose_toolkit(explicit_path, std::string("12"));
  REQUIRE(chosen.toolkit);
  CHECK(chosen.toolkit->version == "11.8");  // --cuda-path wins; compatibility is checked by the caller
  CHECK_THAT(chosen.reason, Catch::Contains("--cuda-path"));
  CHECK_FALSE(choose_toolkit({}, std::nullopt).toolkit);
}
