#include <catch2/catch.hpp>

#include <filesystem>

#include "../install/toolkit_trees.hpp"
#include "../archive/test_archives.hpp"
#include "../loader/crafted_elf.hpp"
#include "cudnnctl/env/shadow_scan.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("Linux: an older copy earlier on the search order shadows the installed one", "[shadow_scan]") {
  TempDir tmp;
  const auto old = tmp.path() / "conda/lib";
  put(old / "libcudnn.so.9.1.0", "old");
  fs::create_symlink("libcudnn.so.9.1.0", old / "libcudnn.so.9");
  const auto v8 = tmp.path() / "system/lib";
  put(v8 / "libcudnn.so.8.9.7", "eight");
  fs::create_symlink("libcudnn.so.8.9.7", v8 / "libcudnn.so.8");
  const auto installed = tmp.path() / "cuda/lib";
  put(installed / "libcudnn.so.9", "pip-style copy: no full version in the name");
  put(tmp.path() / "cuda/include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");

  platform::MapEnvironment env({{"LD_LIBRARY_PATH", old.string() + ":" + v8.string()}});
  const auto order = linux_search_order(env, OwnSearchPaths{{}, {installed.string()}}, {"/nonexistent"});
  REQUIRE(order.size() >= 4);
  CHECK(order[0].via == "LD_LIBRARY_PATH");
  CHECK(order[2].via == "RUNPATH");
  CHECK(order[3].via == "ld.so cache");

  const auto r = scan_cudnn_copies(order, LoaderFlavor::linux_ld, 9, installed.string());
  REQUIRE(r.copies.size() == 3);
  CHECK(r.copies[0].version == "9.1.0");
  CHECK(r.copies[0].wins);
  CHECK(r.copies[1].version == "8.9.7");
  CHECK_FALSE(r.copies[1].wins);  // another major: a different soname, no shadowing
  CHECK(r.copies[2].version == "9.19.0");
  CHECK(r.copies[2].installed);
  REQUIRE(r.explanations.size() == 1);
  CHECK_THAT(r.explanations[0], Catch::Contains(old.string()) && Catch::Contains("9.1.0") && Catch::Contains("LD_LIBRARY_PATH"));

  const auto off = scan_cudnn_copies(linux_search_order(platform::MapEnvironment(std::map<std::string, std::string>{}), {}, {}), LoaderFlavor::linux_ld, 9,
                                     installed.string());
  REQUIRE_FALSE(off.explanations.empty());
  CHECK_THAT(off.explanations[0], Catch::Contains("not on the search path"));
}

TEST_CASE("Windows: System32 comes before PATH, a stale cudnn64_9.dll there wins", "[shadow_scan]") {
  TempDir tmp;
  const auto win = tmp.path() / "Windows";
  put(win / "System32/cudnn64_9.dll", "stale");
  put(win / "System32/cudnn64_8.dll", "older major");
  const auto cuda = tmp.path() / "CUDA/v12.4/bin";
  put(cuda / "cudnn64_9.dll", "installed");
  put(tmp.path() / "CUDA/v12.4/include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  platform::MapEnvironment env({{"SystemRoot", win.string()}, {"PATH", "%SystemRoot%\\System32;\"" + cuda.string() + "\""}});
  const auto order = windows_search_order(env, "");
  REQUIRE(order.size() == 5);
  CHECK(order[0].via == "System32");
  CHECK(order[1].via == "System folder");
  CHECK(order[2].via == "Windows folder");
  CHECK(order[3].dir == win.string() + "\\System32");  // %SystemRoot% expanded
  CHECK(order[3].via == "PATH");
  CHECK(order[4].dir == cuda.string());                // quotes gone
  // a program started from a folder searches it after the Windows folder, before PATH
  const auto from_here = windows_search_order(env, "C:\\app", "D:\\work");
  REQUIRE(from_here.size() == 7);
  CHECK(from_here[0].via == "application folder");
  CHECK(from_here[4].dir == "D:\\work");
  CHECK(from_here[4].via == "current folder");
  // the test runs on Linux: use '/' folders for the listing, the order logic is the same
  const std::vector<SearchDir> real_dirs = {{(win / "System32").string(), "System32"}, {win.string(), "the Windows folder"}, {cuda.string(), "PATH"}};
  const auto r = scan_cudnn_copies(real_dirs, LoaderFlavor::windows, 9, cuda.string());
  REQUIRE(r.copies.size() == 3);
  CHECK(r.copies[1].main_file == "cudnn64_9.dll");
  CHECK(r.copies[1].wins);
  CHECK(r.copies[2].installed);
  CHECK(r.copies[2].version == "9.1.0");
  REQUIRE(r.explanations.size() == 1);
  CHECK_THAT(r.explanations[0], Catch::Contains("System32"));
}

TEST_CASE("ldconfig -p output gives the cache's cuDNN folders in order", "[shadow_scan]") {
  const std::string text =
      "123 libs found in cache `/etc/ld.so.cache'\n"
      "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1\n"
      "\tlibcudnn_ops.so.9 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudnn_ops.so.9\n"
      "\tlibcudnn.so.9 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudnn.so.9\n"
      "\tlibcudnn.so.8 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.8\n";
  CHECK(parse_ldconfig_cache(text) == std::vector<std::string>{"/usr/local/cuda-13.0/lib", "/usr/lib/x86_64-linux-gnu"});
}

TEST_CASE("a copy built for another architecture is named and skipped, never the one programs load", "[shadow_scan]") {
  TempDir tmp;
  CraftedElf arm;
  arm.machine = 183;  // EM_AARCH64: an sbsa archive's library copied onto an x86_64 machine
  CraftedElf x86;     // EM_X86_64
  const auto foreign = tmp.path() / "sbsa/lib";
  put(foreign / "libcudnn.so.9", arm.build());
  const auto native = tmp.path() / "x86/lib";
  put(native / "libcudnn.so.9", x86.build());
  const std::vector<SearchDir> order{{foreign.string(), "LD_LIBRARY_PATH"}, {native.string(), "RUNPATH"}};

  const auto r = scan_cudnn_copies(order, LoaderFlavor::linux_ld, 9, native.string(), "x86_64");
  REQUIRE(r.copies.size() == 2);
  CHECK(r.copies[0].machine == "aarch64");
  CHECK(r.copies[0].other_machine);
  CHECK_FALSE(r.copies[0].wins);
  CHECK(r.copies[1].machine == "x86_64");
  CHECK(r.copies[1].wins);  // the loader passes over the aarch64 file and takes this one
  REQUIRE(r.explanations.size() == 1);
  CHECK_THAT(r.explanations[0], Catch::Contains("built for aarch64") && Catch::Contains("another architecture"));

  // the same folders seen by an aarch64 process: now the x86_64 copy is the foreign one
  const auto on_arm = scan_cudnn_copies(order, LoaderFlavor::linux_ld, 9, native.string(), "aarch64");
  CHECK(on_arm.copies[0].wins);
  CHECK(on_arm.copies[1].other_machine);
}
