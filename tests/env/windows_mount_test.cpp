#include <catch2/catch.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/env/windows_mount.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("Windows drives seen from here: inferred, parsed, and paths matched case-insensitively", "[windows_mount]") {
  CHECK(WindowsMount::infer_from_wsl_path("/mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4") == std::pair{'C', std::string("/mnt/c")});
  CHECK_FALSE(WindowsMount::infer_from_wsl_path("/mnt/data/x"));
  CHECK(WindowsMount::infer_from_match("C:\\CUDA\\v12.4\\bin", "/srv/img/cuda/V12.4/bin") == std::pair{'C', std::string("/srv/img")});
  CHECK_FALSE(WindowsMount::infer_from_match("C:\\CUDA\\v12.3\\bin", "/srv/img/CUDA/v12.4/bin"));
  CHECK_FALSE(WindowsMount::infer_from_match("relative\\bin", "/srv/bin"));
  CHECK(WindowsMount::parse_drive_option("d:=/data/d") == std::pair{'D', std::string("/data/d")});
  CHECK(WindowsMount::parse_drive_option("E=/e") == std::pair{'E', std::string("/e")});
  CHECK_FALSE(WindowsMount::parse_drive_option("CC:=/x"));
  CHECK_FALSE(WindowsMount::parse_drive_option("C:"));

  TempDir tmp;
  put(tmp.path() / "disk/Windows/System32/KERNEL32.dll");
  WindowsMount m;
  m.map_drive('c', (tmp.path() / "disk").string());
  CHECK(m.to_local("C:\\WINDOWS\\system32") == (tmp.path() / "disk/Windows/System32").string());
  CHECK(m.to_local("\"c:\\windows\\system32\\kernel32.dll\"") == (tmp.path() / "disk/Windows/System32/KERNEL32.dll").string());
  CHECK_FALSE(m.to_local("D:\\x"));
  CHECK_FALSE(m.to_local("%SystemRoot%"));
  CHECK(m.describe() == "C: = " + (tmp.path() / "disk").string());
}
