// install/uninstall on real machines: links in the toolkit path, forged or corrupt state, leftovers of
// killed runs, repairs, edited files and neighbours that only look like cuDNN (issue 18, items 1-14).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "../skip.hpp"
#include "cudnnctl/base/crc32.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

struct Setup {
  TempDir tmp;
  std::string root;
  std::string archive;
  std::string hash;
  Setup() {
    root = linux_toolkit(tmp.path(), "12.4").string();
    archive = (tmp.path() / (L91 + ".tar.xz")).string();
    fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), archive);
    hash = *sha256_file(archive);
  }
  Run install(const std::string& cuda_path, std::vector<std::string> more = {}) const {
    std::vector<std::string> args = {"install", archive, "--sha256", hash, "--cuda-path", cuda_path, "--no-path"};
    args.insert(args.end(), more.begin(), more.end());
    return run(args);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
} // namespace

TEST_CASE("install through a linked toolkit path or a linked parent, like /usr/local/cuda", "[cli][install][links]") {
  Setup s;
  const auto before = snapshot(s.root);
  const auto link = (s.tmp.path() / "cudalink").string();
  fs::create_directory_symlink(s.root, link);
  const auto dry = s.install(link, {"--dry-run"});
  CHECK(dry.code == 0);
  const auto real = s.install(link);
  INFO(real.err);
  REQUIRE(real.code == 0);
  CHECK(fs::is_regular_file(fs::path(s.root) / "include/cudnn_version.h"));
  CHECK(s.install(link + "/").code == 0);  // already installed, through the link with a trailing slash
  REQUIRE(run({"uninstall", "--cuda-path", link}).code == 0);
  CHECK(snapshot(s.root) == before);

  // a linked parent: lnparent -> realparent, --cuda-path lnparent/<toolkit>
  fs::create_directory(s.tmp.path() / "realparent");
  const auto tk2 = linux_toolkit(s.tmp.path() / "realparent", "12.4");
  fs::create_directory_symlink(s.tmp.path() / "realparent", s.tmp.path() / "lnparent");
  const auto via = (s.tmp.path() / "lnparent" / tk2.filename()).string();
  const auto r2 = s.install(via);
  INFO(r2.err);
  CHECK(r2.code == 0);
  CHECK(run({"uninstall", "--cuda-path", via}).code == 0);

  // extract --to below a linked parent
  const auto out = run({"extract", s.archive, "--sha256", s.hash, "--to", (s.tmp.path() / "lnparent/out").string()});
  INFO(out.err);
  CHECK(out.code == 0);
  CHECK(fs::is_directory(s.tmp.path() / "realparent/out" / L91 / "include"));
}

TEST_CASE("forged state naming paths outside the toolkit is refused and touches nothing", "[cli][install][forged]") {
  Setup s;
  const auto victim = s.tmp.path() / "victim";
  put(victim / "keep.txt", "precious");
  const auto state = fs::path(s.root) / ".cudnnctl";

  // a journal that would delete a folder outside
  fs::create_directories(state);
  std::ofstream(state / "journal.json") << nlohmann::json{{"schema_version", 1},        {"id", "x"},
                                                          {"description", "forged"},    {"phase", "committed"},
                                                          {"moves", nlohmann::json::array()}, {"remove_on_commit", {victim.string()}},
                                                          {"remove_on_rollback", nlohmann::json::array()}}
                                              .dump();
  for (const auto& args : {std::vector<std::string>{"uninstall", "--cuda-path", s.root}, {"install", s.archive, "--sha256", s.hash, "--cuda-path", s.root}}) {
    const auto r = run(args);
    CHECK(r.code == 14);  // state.unsafe
    CHECK_THAT(r.err, Catch::Contains("refusing the install state") && Catch::Contains(victim.string()));
    CHECK(fs::exists(victim / "keep.txt"));
    CHECK(fs::exists(state / "journal.json"));
  }
  fs::remove_all(state);

  // receipts: a file outside to delete, an original to "restore" outside
  REQUIRE(s.install(s.root).code == 0);
  const auto installed = snapshot(s.root);
  const auto genuine = slurp(state / "receipt.json");
  auto forge = [&](const std::function<void(nlohmann::json&)>& edit) {
    auto j = nlohmann::json::parse(genuine);
    edit(j);
    std::ofstream(state / "receipt.json", std::ios::trunc) << j.dump();
  };
  put(s.tmp.path() / "victim2/file.txt", "precious");
  forge([](nlohmann::json& j) { j["files"].push_back({{"path", "../victim2/file.txt"}, {"kind", "file"}, {"size", 8}, {"crc32", "00000000"}}); });
  auto r = run({"uninstall", "--cuda-path", s.root});
  CHECK(r.code == 14);
  CHECK_THAT(r.err, Catch::Contains("../victim2/file.txt"));
  CHECK(fs::exists(s.tmp.path() / "victim2/file.txt"));
  CHECK(snapshot(s.root) == installed);

  put(state / "payload", "#!/bin/sh\n");
  forge([](nlohmann::json& j) { j["replaced"].push_back({{"path", "../victim3/planted.sh"}, {"backup", ".cudnnctl/payload"}}); });
  r = run({"uninstall", "--cuda-path", s.root});
  CHECK(r.code == 14);
  CHECK_FALSE(fs::exists(s.tmp.path() / "victim3"));
  CHECK(snapshot(s.root) == installed);
  CHECK(s.install(s.root).code == 14);  // install refuses the forged receipt too
  CHECK(snapshot(s.root) == installed);
}

TEST_CASE("a staging folder left by a killed run is removed by the next run", "[cli][install][leftover]") {
  Setup s;
  REQUIRE(s.install(s.root).code == 0);
  const auto dead = fs::path(s.root) / ".cudnnctl/staging-deadbeef";
  put(dead / L91 / "lib/libcudnn.so.9.1.0", std::string(4096, 'x'));
  const auto again = s.install(s.root);
  CHECK(again.code == 0);
  CHECK_THAT(again.err, Catch::Contains("removed 1 staging folder") && Catch::Contains("interrupted run"));
  CHECK_FALSE(fs::exists(dead));
  put(dead / "x", "y");
  CHECK(run({"uninstall", "--cuda-path", s.root}).code == 0);
  CHECK_FALSE(fs::exists(fs::path(s.root) / ".cudnnctl"));
}

TEST_CASE("uninstall after a killed install reports the roll-back, exits 0 and releases the lock", "[cli][install][kill]") {
  Setup s;
  const auto before = snapshot(s.root);
  const std::string cmd = "CUDNNCTL_FAULT_KILL_AFTER_MOVES=3 " + std::string(CUDNNCTL_BINARY) + " install '" + s.archive + "' --sha256 " +
                          s.hash + " --cuda-path '" + s.root + "' > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) != 0);
  REQUIRE(fs::exists(fs::path(s.root) / ".cudnnctl/journal.json"));
  const auto r = run({"uninstall", "--cuda-path", s.root});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("rolled back"));
  CHECK_THAT(r.out, Catch::Contains("nothing else installed"));
  CHECK(snapshot(s.root) == before);
  CHECK_FALSE(fs::exists(fs::path(s.root) / ".cudnnctl"));  // lock and all
  CHECK(run({"uninstall", "--cuda-path", s.root}).code == 8);
}

TEST_CASE("a repair re-places only what differs, one uninstall restores the original toolkit", "[cli][install][repair]") {
  Setup s;
  put(fs::path(s.root) / "include/cudnn.h", "an older cudnn.h");
  const auto before = snapshot(s.root);
  REQUIRE(s.install(s.root).code == 0);
  const auto installed = snapshot(s.root);
  const auto lib = fs::path(s.root) / "lib64/libcudnn.so.9.1.0";
  std::ofstream(lib, std::ios::trunc).close();
  const auto repaired = s.install(s.root, {"--json"});
  REQUIRE(repaired.code == 0);
  const auto j = nlohmann::json::parse(repaired.out);
  CHECK(j["changed"] == true);
  CHECK_THAT(j["summary"].get<std::string>(), Catch::Contains("repaired") && Catch::Contains("1 file re-placed"));
  CHECK(snapshot(s.root) == installed);
  int backups = 0;
  for (const auto& e : fs::directory_iterator(fs::path(s.root) / ".cudnnctl"))
    if (e.path().filename().string().starts_with("backup-")) ++backups;
  CHECK(backups == 1);  // no second, stacked backup
  REQUIRE(run({"uninstall", "--cuda-path", s.root}).code == 0);
  CHECK(snapshot(s.root) == before);
  CHECK_FALSE(fs::exists(fs::path(s.root) / ".cudnnctl"));
}

TEST_CASE("uninstall keeps an installed file the user edited, and names it", "[cli][install][edited]") {
  Setup s;
  REQUIRE(s.install(s.root).code == 0);
  const auto header = fs::path(s.root) / "include/cudnn_version.h";
  std::ofstream(header, std::ios::app) << "// my patch\n";
  const auto edited = slurp(header);
  const auto r = run({"uninstall", "--cuda-path", s.root, "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["kept"].size() == 1);
  CHECK(j["kept"][0] == "include/cudnn_version.h.cudnnctl-edited");
  CHECK_THAT(j["summary"].get<std::string>(), Catch::Contains("include/cudnn_version.h.cudnnctl-edited"));
  CHECK(slurp(fs::path(s.root) / "include/cudnn_version.h.cudnnctl-edited") == edited);
  CHECK_FALSE(fs::exists(header));
}

TEST_CASE("a corrupt receipt is called corrupt, with what to do, and never carried forward", "[cli][install][corrupt]") {
  Setup s;
  REQUIRE(s.install(s.root).code == 0);
  const auto receipt = fs::path(s.root) / ".cudnnctl/receipt.json";
  std::ofstream(receipt, std::ios::trunc) << "{garbage";
  const auto installed = snapshot(s.root);
  for (const auto& r : {run({"uninstall", "--cuda-path", s.root}), s.install(s.root)}) {
    CHECK(r.code == 8);
    CHECK_THAT(r.err, Catch::Contains("is corrupt") && Catch::Contains("receipt.json.corrupt"));
  }
  CHECK(slurp(receipt) == "{garbage");
  CHECK(snapshot(s.root) == installed);
}

TEST_CASE("stale cuDNN means cuDNN's own names: cudnn-frontend headers and notes stay", "[cli][install][stale]") {
  Setup s;
  const fs::path root = s.root;
  put(root / "include/cudnn_frontend.h", "frontend");
  put(root / "include/cudnn_frontend_utils.h", "frontend utils");
  put(root / "include/cudnn_frontend/graph.h", "frontend graph");
  put(root / "lib64/cudnn_README.txt", "notes");
  put(root / "lib64/libcudnn_cnn_infer.so.8", "a cuDNN 8 leftover");
  const auto before = snapshot(s.root);
  const auto r = s.install(s.root);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("1 stale cuDNN file removed"));
  CHECK(fs::exists(root / "include/cudnn_frontend.h"));
  CHECK(fs::exists(root / "include/cudnn_frontend_utils.h"));
  CHECK(fs::exists(root / "lib64/cudnn_README.txt"));
  CHECK_FALSE(fs::exists(root / "lib64/libcudnn_cnn_infer.so.8"));
  REQUIRE(run({"uninstall", "--cuda-path", s.root}).code == 0);
  CHECK(snapshot(s.root) == before);
}

TEST_CASE("a missing archive is named before anything is created in the toolkit", "[cli][install][missing]") {
  Setup s;
  put(fs::path(s.root) / ".cudnnctl", "a file where the state folder would go");  // any write into the toolkit fails
  const auto r = run({"install", (s.tmp.path() / "nowhere" / (L91 + ".tar.xz")).string(), "--sha256", s.hash, "--cuda-path", s.root});
  CHECK(r.code == 8);
  CHECK_THAT(r.err, Catch::Contains("does not exist"));
}

TEST_CASE("CUDA 13 Windows trees: older cuDNN DLLs in bin are stale too", "[cli][install][windows]") {
  TempDir tmp;
  const auto root = windows_toolkit(tmp.path(), "13.0", true);
  put(root / "bin/cudnn64_9.dll", "cuDNN 9.0 in bin");
  put(root / "bin/cudnn_ops64_9.dll", "cuDNN 9.0 in bin");
  put(root / "bin/cudnn64_8.dll", "cuDNN 8 in bin");
  const auto before = snapshot(root);
  const auto archive = (tmp.path() / (W91 + ".zip")).string();
  fs::copy_file(test_archive("good/python-" + W91 + ".zip"), archive);
  const auto r = run({"install", archive, "--sha256", *sha256_file(archive), "--cuda-path", root.string(), "--force", "--no-path"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("3 stale cuDNN files removed"));
  CHECK_FALSE(fs::exists(root / "bin/cudnn64_9.dll"));
  CHECK_FALSE(fs::exists(root / "bin/cudnn64_8.dll"));
  CHECK(fs::exists(root / "bin/x64/cudnn64_9.dll"));
  REQUIRE(run({"uninstall", "--cuda-path", root.string()}).code == 0);
  CHECK(snapshot(root) == before);
}

TEST_CASE("archives that used to install broken are refused as hostile, exit 6", "[cli][install][hostile]") {
  TempDir tmp;
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  const auto before = snapshot(lin);
  const std::vector<std::pair<std::string, std::string>> cases = {{"tar-link-cycle", "loop of symbolic links"},
                                                                  {"tar-link-dangling", "dangling link"},
                                                                  {"tar-file-and-folder", "which is a file in this archive"},
                                                                  {"tar-xz-bomb", "compression bomb"}};
  for (const auto& [name, why] : cases) {
    INFO(name);
    fs::create_directories(tmp.path() / name);
    const auto archive = (tmp.path() / name / (L91 + ".tar.xz")).string();
    fs::copy_file(test_archive("hostile/" + name + ".tar.xz"), archive);
    const auto hash = *sha256_file(archive);
    for (const auto& args : {std::vector<std::string>{"install", archive, "--sha256", hash, "--cuda-path", lin.string()},
                             {"install", archive, "--sha256", hash, "--cuda-path", lin.string(), "--dry-run"},
                             {"extract", archive, "--sha256", hash, "--to", (tmp.path() / name / "out").string()}}) {
      const auto r = run(args);
      CHECK(r.code == 6);
      CHECK_THAT(r.err, Catch::Contains(why));
    }
    CHECK(snapshot(lin) == before);
    CHECK_FALSE(fs::exists(tmp.path() / name / "out"));
  }
  // a Windows zip with no DLL would install headers only (and remove the toolkit's DLLs as stale)
  const auto win = windows_toolkit(tmp.path(), "12.4", false);
  const auto wbefore = snapshot(win);
  const auto zip = (tmp.path() / (W91 + ".zip")).string();
  fs::copy_file(test_archive("odd/no-dll.zip"), zip);
  const auto r = run({"install", zip, "--sha256", *sha256_file(zip), "--cuda-path", win.string()});
  CHECK(r.code == 6);
  CHECK_THAT(r.err, Catch::Contains("cudnn64_9.dll"));
  CHECK(snapshot(win) == wbefore);
}

namespace {
// A mount for one test, removed again whatever happens; skipped where mounting is not allowed.
struct Mount {
  std::string at;
  bool ok = false;
  Mount(const std::string& cmd, std::string where) : at(std::move(where)) { ok = std::system((cmd + " > /dev/null 2>&1").c_str()) == 0; }
  ~Mount() {
    if (ok) (void)std::system(("umount '" + at + "' > /dev/null 2>&1").c_str());
  }
};


// Mounts a fresh tmpfs on `dir`, with what `dir` held copied into it (the toolkit stays a toolkit);
// unmounting brings the original back.
struct TmpfsOver {
  std::unique_ptr<Mount> mount;
  TmpfsOver(const fs::path& dir, const fs::path& keep, const std::string& size) {
    fs::copy(dir, keep, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    mount = std::make_unique<Mount>("mount -t tmpfs -o size=" + size + " tmpfs '" + dir.string() + "'", dir.string());
    if (mount->ok) fs::copy(keep, dir, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  }
  bool ok() const { return mount->ok; }
};

// Files a move across file systems writes before renaming into place: none may stay.
int part_files(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().ends_with(".cudnnctl-part")) ++n;
  return n;
}
} // namespace

TEST_CASE("lib64 and include on other file systems (tmpfs): installed by copy, receipted, uninstalled exactly", "[cli][install][mounts]") {
  Setup s;
  const fs::path root = s.root;
  put(root / "include/cudnn_version.h", "an older header");  // replaced: its backup crosses file systems too
  const auto lib = root / "targets/x86_64-linux/lib";
  TmpfsOver lib_fs(lib, s.tmp.path() / "keep-lib", "8m");
  if (!lib_fs.ok()) CUDNNCTL_SKIP("cannot mount a tmpfs here (needs root)");
  TmpfsOver include_fs(root / "include", s.tmp.path() / "keep-include", "8m");
  REQUIRE(include_fs.ok());
  const auto before = snapshot(root);

  const auto r = s.install(s.root);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.err, !Catch::Contains("cross-device"));
  // placed as the archive has them: regular files with their mode, links as links (the chain kept)
  CHECK(fs::is_regular_file(fs::symlink_status(lib / "libcudnn.so.9.1.0")));
  CHECK((fs::status(lib / "libcudnn.so.9.1.0").permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK(fs::read_symlink(lib / "libcudnn.so.9") == "libcudnn.so.9.1.0");
  CHECK(fs::read_symlink(lib / "libcudnn.so") == "libcudnn.so.9");
  CHECK(part_files(lib) == 0);
  CHECK(part_files(root / "include") == 0);
  // the receipt lists every file with the CRC-32 it has in the toolkit, and the replaced header's backup
  const auto receipt = nlohmann::json::parse(slurp(root / ".cudnnctl/receipt.json"));
  int files = 0;
  for (const auto& f : receipt.at("files")) {
    INFO(f.dump());
    const auto p = root / f.at("path").get<std::string>();
    if (f.at("kind") == "symlink") {
      CHECK(fs::read_symlink(p).string() == f.at("link_target").get<std::string>());
    } else {
      CHECK(crc32_hex(*crc32_file(p.string())) == f.at("crc32").get<std::string>());
      ++files;
    }
  }
  CHECK(files >= 3);
  REQUIRE(receipt.at("replaced").size() == 1);
  CHECK(slurp(root / receipt.at("replaced")[0].at("backup").get<std::string>()) == "an older header");
  const auto again = s.install(s.root);  // the same archive again: every file matches its receipt
  CHECK(again.code == 0);
  CHECK_THAT(again.out + again.err, Catch::Contains("already installed"));

  const auto u = run({"uninstall", "--cuda-path", s.root});
  INFO(u.err);
  CHECK(u.code == 0);
  CHECK(snapshot(root) == before);
  CHECK_FALSE(fs::exists(root / ".cudnnctl"));

  // killed inside a move across file systems (the copy in place, its source not yet removed): the next
  // run rolls back to the old toolkit
  const std::string cmd = std::string(CUDNNCTL_BINARY) + " install '" + s.archive + "' --sha256 " + s.hash + " --cuda-path '" + s.root + "' --no-path";
  for (int n = 1; n <= 4; ++n) {
    INFO("killed in copy " << n);
    CHECK(std::system(("CUDNNCTL_FAULT_KILL_IN_COPY=" + std::to_string(n) + " " + cmd + " > /dev/null 2>&1").c_str()) != 0);
    CHECK(fs::exists(root / ".cudnnctl/journal.json"));
    const auto next = run({"uninstall", "--cuda-path", s.root});
    INFO(next.err);
    CHECK(next.code == 0);
    CHECK_THAT(next.out + next.err, Catch::Contains("rolled back"));
    CHECK(snapshot(root) == before);
    CHECK(part_files(lib) == 0);
    CHECK_FALSE(fs::exists(root / ".cudnnctl"));
  }
}

TEST_CASE("a library folder too small for cuDNN: No space left on device, the toolkit unchanged", "[cli][install][mounts]") {
  Setup s;
  const fs::path root = s.root;
  const auto lib = root / "targets/x86_64-linux/lib";
  TmpfsOver small(lib, s.tmp.path() / "keep-lib", "16k");  // holds libcudart, not a 30 kB cuDNN library
  if (!small.ok()) CUDNNCTL_SKIP("cannot mount a tmpfs here (needs root)");
  const auto before = snapshot(root);
  const auto r = s.install(s.root);
  CHECK(r.code == 8);
  CHECK_THAT(r.err, Catch::Contains("No space left on device") && Catch::Contains("rolled back"));
  CHECK(snapshot(root) == before);
  CHECK(part_files(lib) == 0);
  CHECK_FALSE(fs::exists(root / ".cudnnctl"));
}

TEST_CASE("a read-only include folder is named as read-only before extracting, not as a failed move", "[cli][install][mounts]") {
  Setup s;
  const fs::path root = s.root;
  const auto before = snapshot(s.root);
  const auto include = (root / "include").string();
  {
    Mount bind("mount --bind '" + include + "' '" + include + "'", include);
    if (!bind.ok) CUDNNCTL_SKIP("cannot bind-mount here (needs root)");
    Mount ro("mount -o remount,bind,ro '" + include + "'", include);
    REQUIRE(ro.ok);
    ro.ok = false;  // one umount removes the bind mount
    const auto r = s.install(s.root);
    CHECK(r.code == 8);
    CHECK_THAT(r.err, Catch::Contains("read-only file system") && !Catch::Contains("cross-device"));
    CHECK_FALSE(fs::exists(root / ".cudnnctl"));
  }
  CHECK(snapshot(s.root) == before);
}
