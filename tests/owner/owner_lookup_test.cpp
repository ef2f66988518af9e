// Owner lookups under a private root, each package manager's records laid out as it lays them, and hostile
// records (a FIFO, an oversized file, a link to /dev/zero) that must neither hang nor be believed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>

#include "../archive/test_archives.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

namespace {

void put_owner_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A Debian root: libcudnn9-cuda-13 (held) owns /usr/lib/x86_64-linux-gnu/libcudnn*.so.9*, /lib -> usr/lib.
void owner_debian_root(const fs::path& r, bool held) {
  put_owner_file(r / "var/lib/dpkg/status", std::string("Package: libcudnn9-cuda-13\nStatus: ") + (held ? "hold" : "install") +
                                     " ok installed\nArchitecture: amd64\nVersion: 9.19.0.56-1\n\n"
                                     "Package: nvidia-cudnn\nStatus: install ok installed\nVersion: 9.23.2.1~cuda12\n\n");
  put_owner_file(r / "var/lib/dpkg/info/libcudnn9-cuda-13.list",
      "/.\n/usr\n/usr/lib\n/usr/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu/libcudnn.so.9.19.0\n"
      "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n");
  put_owner_file(r / "usr/lib/x86_64-linux-gnu/libcudnn.so.9.19.0", "x");
  fs::create_symlink("usr/lib", r / "lib");
}

} // namespace

TEST_CASE("dpkg: the package, its version and its hold, /lib and /usr/lib alike", "[owner_lookup]") {
  TempDir t;
  owner_debian_root(t.path(), true);
  OwnerLookup lookup(t.str());
  const auto o = lookup.owner_of(t.str() + "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.19.0");
  CHECK(o.kind == OwnerKind::dpkg);
  CHECK(o.package == "libcudnn9-cuda-13");
  CHECK(o.version == "9.19.0.56-1");
  CHECK(o.held);
  CHECK(describe(o) == "dpkg: libcudnn9-cuda-13 9.19.0.56-1 (held)");
  CHECK(removal_fix(o, "x").starts_with("sudo apt remove libcudnn9-cuda-13"));
  CHECK(pin_fix(o) == "sudo apt-mark hold libcudnn9-cuda-13");
  // the loader's name for it (ldconfig prints /lib/...): the same owner
  CHECK(lookup.owner_of(t.str() + "/lib/x86_64-linux-gnu/libcudnn.so.9").package == "libcudnn9-cuda-13");
  // the target's own absolute path
  CHECK(lookup.owner_of("/lib/x86_64-linux-gnu/libcudnn.so.9.19.0").kind == OwnerKind::dpkg);
  CHECK_FALSE(lookup.owner_of(t.str() + "/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9").owned());
}

TEST_CASE("Debian's nvidia-cudnn downloader: its filelist, dpkg's version of it", "[owner_lookup]") {
  TempDir t;
  owner_debian_root(t.path(), false);
  put_owner_file(t.path() / "var/lib/nvidia-cudnn/filelist.txt", "/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9.23.2\n");
  OwnerLookup lookup(t.str());
  const auto o = lookup.owner_of(t.str() + "/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9.23.2");
  CHECK(o.kind == OwnerKind::nvidia_cudnn);
  CHECK(o.version == "9.23.2.1~cuda12");
  CHECK(removal_fix(o, "x").find("apt purge nvidia-cudnn") != std::string::npos);
  CHECK_FALSE(lookup.owner_of(t.str() + "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.19.0").held);
}

TEST_CASE("pacman's local database", "[owner_lookup]") {
  TempDir t;
  put_owner_file(t.path() / "var/lib/pacman/local/cudnn-9.19.1.2-1/desc", "%NAME%\ncudnn\n\n%VERSION%\n9.19.1.2-1\n");
  put_owner_file(t.path() / "var/lib/pacman/local/cudnn-9.19.1.2-1/files", "%FILES%\nusr/\nusr/lib/\nusr/lib/libcudnn.so.9\n");
  put_owner_file(t.path() / "var/lib/pacman/local/ALPM_DB_VERSION", "9\n");
  OwnerLookup lookup(t.str());
  const auto o = lookup.owner_of(t.str() + "/usr/lib/libcudnn.so.9");
  CHECK(describe(o) == "pacman: cudnn 9.19.1.2-1");
  CHECK(removal_fix(o, "x") == "sudo pacman -R cudnn");
}

TEST_CASE("conda, pip and cudnnctl's receipt", "[owner_lookup]") {
  TempDir t;
  const auto env = t.path() / "envs/a";
  put_owner_file(env / "conda-meta/libcudnn-9.25.0.15-h0_0.json",
      R"({"name":"libcudnn","version":"9.25.0.15","files":["lib/libcudnn.so.9"]})");
  put_owner_file(env / "conda-meta/history", "");
  const auto site = t.path() / "venv/lib/python3.12/site-packages";
  put_owner_file(site / "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD", "nvidia/cudnn/lib/libcudnn.so.9,sha256=x,1\n");
  const auto tk = t.path() / "cuda";
  put_owner_file(tk / ".cudnnctl/receipt.json", R"({"version":"9.19.0.56","files":[{"path":"lib64/libcudnn.so.9"}]})");
  OwnerLookup lookup;
  CHECK(describe(lookup.owner_of((env / "lib/libcudnn.so.9").string())) == "conda: libcudnn 9.25.0.15");
  CHECK_FALSE(lookup.owner_of((env / "lib/libcudnn_ops.so.9").string()).owned());
  const auto pip = lookup.owner_of((site / "nvidia/cudnn/lib/libcudnn.so.9").string());
  CHECK(describe(pip) == "pip: nvidia-cudnn-cu12 9.1.0.70");
  CHECK(removal_fix(pip, "x") == "pip uninstall nvidia-cudnn-cu12");
  const auto mine = lookup.owner_of((tk / "lib64/libcudnn.so.9").string());
  CHECK(mine.kind == OwnerKind::cudnnctl);
  CHECK_FALSE(mine.foreign());
  CHECK(removal_fix(mine, "x") == "cudnnctl uninstall --cuda-path " + tk.string());
}

TEST_CASE("NVIDIA's Windows installer folder, and nobody's copy", "[owner_lookup]") {
  OwnerLookup lookup;
  const auto o = lookup.owner_of(R"(C:\Program Files\NVIDIA\CUDNN\v9.1\bin\12.4\cudnn64_9.dll)");
  CHECK(o.kind == OwnerKind::windows_installer);
  CHECK(o.version == "9.1");
  CHECK(removal_fix(o, "x").find("Settings > Apps") != std::string::npos);
  const auto none = lookup.owner_of("/nonexistent/cudnnctl-owner-test/libcudnn.so.9");
  CHECK_FALSE(none.owned());
  CHECK(describe(none) == "not owned by any package manager");
  CHECK(removal_fix(none, "/x/libcudnn.so.9") == "delete /x/libcudnn.so.9 (no package manager owns it)");
}

TEST_CASE("hostile records: a FIFO, /dev/zero and an oversized status are no records, and do not hang", "[owner_lookup]") {
  TempDir t;
  fs::create_directories(t.path() / "var/lib/dpkg/info");
  REQUIRE(::mkfifo((t.path() / "var/lib/dpkg/status").c_str(), 0600) == 0);
  fs::create_directories(t.path() / "var/lib/nvidia-cudnn");
  fs::create_symlink("/dev/zero", t.path() / "var/lib/nvidia-cudnn/filelist.txt");
  fs::create_directories(t.path() / "var/lib/pacman/local/cudnn-1-1");
  put_owner_file(t.path() / "var/lib/pacman/local/cudnn-1-1/desc", "%NAME%\ncudnn\n%VERSION%\n1-1\n");
  {
    std::ofstream big(t.path() / "var/lib/pacman/local/cudnn-1-1/files", std::ios::binary);
    big << "%FILES%\nusr/lib/libcudnn.so.9\n";
  }
  fs::resize_file(t.path() / "var/lib/pacman/local/cudnn-1-1/files", (64ull << 20));
  OwnerLookup lookup(t.str());
  CHECK_FALSE(lookup.owner_of(t.str() + "/usr/lib/libcudnn.so.9").owned());
}

TEST_CASE("system folders are no toolkit", "[owner_lookup]") {
  CHECK(system_territory("/usr"));
  CHECK(system_territory("/usr/"));
  CHECK(system_territory("/"));
  CHECK(system_territory("/usr/lib/nvidia-cuda-toolkit"));
  CHECK(system_territory("/usr/lib/x86_64-linux-gnu"));
  CHECK(system_territory("/lib64"));
  CHECK_FALSE(system_territory("/usr/local/cuda-13.0"));
  CHECK_FALSE(system_territory("/usr/local"));
  CHECK_FALSE(system_territory("/opt/cuda"));
  CHECK_FALSE(system_territory("/library"));
  CHECK(merged_usr_aliases("/lib/x86_64-linux-gnu/a") ==
        std::vector<std::string>{"/lib/x86_64-linux-gnu/a", "/usr/lib/x86_64-linux-gnu/a"});
  CHECK(target_path("/mnt/r", "/mnt/r/usr/lib/x") == "/usr/lib/x");
  CHECK(target_path("/mnt/r", "/mnt/rx/usr") == "/mnt/rx/usr");
}
