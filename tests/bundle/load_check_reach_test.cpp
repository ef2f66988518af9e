#include <catch2/catch.hpp>

#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/bundle/load_check_reach.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;

namespace {
void touch_file(const std::filesystem::path& p) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << "x";
}
} // namespace

TEST_CASE("load check reach: only libraries of this OS can be loaded here", "[load_check_reach]") {
  CHECK_FALSE(load_check_impossible(Os::linux_os, Os::linux_os));
  CHECK_FALSE(load_check_impossible(Os::windows, Os::windows));
  CHECK(load_check_impossible(Os::windows, Os::linux_os) == "Linux cannot load a Windows DLL");
  CHECK(load_check_impossible(Os::linux_os, Os::windows) == "Windows cannot load a Linux shared library");
}

TEST_CASE("load check reach: WSL interop is found through binfmt_misc, cudnnctl.exe beside us or on PATH", "[load_check_reach]") {
  TempDir d;
  const auto misc = d.path() / "binfmt_misc";
  std::filesystem::create_directories(misc);
  const platform::MapEnvironment env({{"PATH", (d.path() / "win").string() + ":" + (d.path() / "empty").string()}});
  const auto self = (d.path() / "linux" / "cudnnctl").string();
  CHECK_FALSE(find_windows_interop(env, self, misc.string()).available);  // not registered: not WSL
  touch_file(d.path() / "win" / "cudnnctl.exe");
  CHECK_FALSE(find_windows_interop(env, self, misc.string()).available);
  touch_file(misc / "WSLInterop-late");
  auto w = find_windows_interop(env, self, misc.string());
  CHECK(w.available);
  CHECK(w.cudnnctl_exe == (d.path() / "win" / "cudnnctl.exe").string());
  touch_file(d.path() / "linux" / "cudnnctl.exe");  // beside this program comes first
  CHECK(find_windows_interop(env, self, misc.string()).cudnnctl_exe == (d.path() / "linux" / "cudnnctl.exe").string());
  std::filesystem::remove(d.path() / "linux" / "cudnnctl.exe");
  std::filesystem::remove(d.path() / "win" / "cudnnctl.exe");
  w = find_windows_interop(env, self, misc.string());
  CHECK(w.available);
  CHECK(w.cudnnctl_exe.empty());
}

TEST_CASE("load check reach: the runner is the command on Windows, with /mnt/c paths as drive-letter paths, and through WSL interop",
          "[load_check_reach]") {
  const std::vector<std::string> args{"bundle", "unbundle", "/mnt/c/Users/me/env/Lib/site-packages/torch/lib", "--cuda-path",
                                      "/mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4"};
  const auto plain = load_check_runner(Os::windows, args, {});
  CHECK(plain == "run 'cudnnctl.exe bundle unbundle C:\\Users\\me\\env\\Lib\\site-packages\\torch\\lib --cuda-path "
                 "\"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\"' on Windows");
  const auto through = load_check_runner(Os::windows, args, {true, "/mnt/c/tools/cudnnctl.exe"});
  CHECK(through.starts_with(plain));
  CHECK(through.find("or from here through WSL interop: '/mnt/c/tools/cudnnctl.exe' bundle unbundle C:\\Users") != std::string::npos);
  CHECK(load_check_runner(Os::windows, args, {true, ""}).find("put cudnnctl.exe on PATH") != std::string::npos);
  CHECK(load_check_runner(Os::linux_os, {"bundle", "swap", "/x", "a.tar.xz"}, {}) == "run 'cudnnctl bundle swap /x a.tar.xz' on Linux");
}
