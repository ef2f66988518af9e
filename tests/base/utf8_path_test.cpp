#include <catch2/catch.hpp>

#include "cudnnctl/base/utf8_path.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

TEST_CASE("utf8 paths: non-ASCII names survive the round trip and name the same file") {
  const std::string dir = "C:/Users/\xe5\xbc\xa0\xe4\xb8\x89/cuda/v12.4";  // 张三
  const fs::path p = path_from_utf8(dir);
  CHECK(utf8_of(p) == dir);
  CHECK(utf8_of(p / "bin") == dir + std::string(1, fs::path::preferred_separator) + "bin");
  CHECK(utf8_of(p.filename()) == "v12.4");
  CHECK(utf8_of(p.parent_path().parent_path().filename()) == "\xe5\xbc\xa0\xe4\xb8\x89");
  // the UTF-16 (Windows) or UTF-8 (POSIX) native form holds one character for 张, not three bytes
  const auto native = path_from_utf8("\xe5\xbc\xa0").native();
  CHECK(native.size() == (sizeof(fs::path::value_type) == 1 ? 3u : 1u));
}

TEST_CASE("utf8 paths: native_utf8 uses the platform's separator") {
  const auto s = native_utf8(path_from_utf8("a/b/c"));
  if (fs::path::preferred_separator == '\\') CHECK(s == "a\\b\\c");
  else CHECK(s == "a/b/c");
}
