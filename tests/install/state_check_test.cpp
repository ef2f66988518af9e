#include <catch2/catch.hpp>

#include <filesystem>

#include "../archive/test_archives.hpp"
#include "cudnnctl/install/install_plan.hpp"
#include "cudnnctl/install/state_check.hpp"
#include "toolkit_trees.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("state paths: only plain relative paths below the toolkit", "[state_check]") {
  CHECK(is_confined_relative("include/cudnn.h"));
  CHECK(is_confined_relative(".cudnnctl/backup-1/lib64/libcudnn.so.9"));
  for (const char* bad : {"", "/etc/passwd", "../victim/file.txt", "include/../../x", "include//cudnn.h", "./include/cudnn.h",
                          "include/.", "C:/Windows/evil.dll", "include\\..\\..\\x", "include/"})
    CHECK_FALSE(is_confined_relative(bad));
  CHECK(is_below("/opt/cuda/include/cudnn.h", "/opt/cuda"));
  CHECK_FALSE(is_below("/opt/cuda", "/opt/cuda"));
  CHECK_FALSE(is_below("/opt/cudax/include/cudnn.h", "/opt/cuda"));
  CHECK_FALSE(is_below("/opt/cuda/../victim", "/opt/cuda"));
  CHECK_FALSE(is_below("/victim", "/opt/cuda"));
}

TEST_CASE("state paths written the Windows way: backslashes are separators, confinement still holds", "[state_check]") {
  CHECK(is_confined_relative("bin\\x64\\cudnn64_9.dll"));
  CHECK(is_below("C:\\CUDA\\v13.0\\.cudnnctl\\backup-1\\bin\\x64\\cudnn64_8.dll", "C:\\CUDA\\v13.0"));
  CHECK(is_below("C:\\CUDA\\v13.0\\bin\\x64\\cudnn64_9.dll", "C:\\CUDA\\v13.0\\"));
  CHECK_FALSE(is_below("C:\\CUDA\\v13.0\\..\\victim\\x.dll", "C:\\CUDA\\v13.0"));
  CHECK_FALSE(is_below("C:\\CUDA\\v13.0x\\bin\\a.dll", "C:\\CUDA\\v13.0"));
  CHECK_FALSE(is_below("D:\\victim\\a.dll", "C:\\CUDA\\v13.0"));
  Journal j;
  j.moves = {{"C:\\CUDA\\v13.0\\bin\\x64\\cudnn64_8.dll", "C:\\CUDA\\v13.0\\.cudnnctl\\backup-1\\bin\\x64\\cudnn64_8.dll"}};
  j.remove_on_commit = {"C:\\CUDA\\v13.0\\.cudnnctl\\staging-1"};
  CHECK(check_journal_paths(j, "C:\\CUDA\\v13.0", "C:\\CUDA\\v13.0\\.cudnnctl"));
  j.remove_on_commit = {"C:\\CUDA\\v13.0\\.cudnnctl\\staging-1\\..\\..\\bin"};
  CHECK_FALSE(check_journal_paths(j, "C:\\CUDA\\v13.0", "C:\\CUDA\\v13.0\\.cudnnctl"));
}

TEST_CASE("a forged receipt or journal is refused, a genuine one passes", "[state_check]") {
  Receipt r;
  r.backup_dir = ".cudnnctl/backup-1";
  r.files.push_back({"include/cudnn.h", "file", 1, {}, "", ""});
  r.files.push_back({".cudnnctl/cudnn-9.1.0.70-LICENSE", "file", 1, {}, "", ""});
  r.replaced.push_back({"include/cudnn.h", ".cudnnctl/backup-1/include/cudnn.h"});
  CHECK(check_receipt_paths(r, "receipt.json"));
  auto forged = r;
  forged.files.push_back({"../victim2/file.txt", "file", 1, {}, "", ""});
  const auto e = check_receipt_paths(forged, "receipt.json");
  REQUIRE_FALSE(e);
  CHECK(e.error().code == ErrorCode::unsafe_state);  // state.unsafe, exit 14 (docs/exit-codes.md), not an I/O error
  CHECK_THAT(e.error().message, Catch::Contains("refusing the install state") && Catch::Contains("../victim2/file.txt"));
  forged = r;
  forged.replaced.push_back({"../victim3/planted.sh", ".cudnnctl/payload"});
  CHECK_FALSE(check_receipt_paths(forged, "receipt.json"));
  forged = r;
  forged.replaced[0].backup = ".cudnnctl/payload";  // not inside a backup folder
  CHECK_FALSE(check_receipt_paths(forged, "receipt.json"));
  for (const char* own : {".cudnnctl/receipt.json", ".cudnnctl/journal.json", ".cudnnctl/lock", ".cudnnctl/backup-1/x", ".cudnnctl"}) {
    forged = r;
    forged.files.push_back({own, "file", 1, {}, "", ""});
    CHECK_FALSE(check_receipt_paths(forged, "receipt.json"));
  }
  forged = r;
  forged.backup_dir = "";  // uninstall would remove <root>/ as the backup folder
  CHECK_FALSE(check_receipt_paths(forged, "receipt.json"));
  forged = r;
  forged.backup_dir = ".cudnnctl";
  CHECK_FALSE(check_receipt_paths(forged, "receipt.json"));

  Journal j;
  j.moves = {{"/t/include/cudnn.h", "/t/.cudnnctl/backup-1/include/cudnn.h"}, {"/t/.cudnnctl/staging-1/x/cudnn.h", "/t/include/cudnn.h"}};
  j.remove_on_commit = {"/t/.cudnnctl/staging-1", "/t/.cudnnctl/trash-1"};
  j.remove_on_rollback = {"/t/.cudnnctl/staging-1", "/t/.cudnnctl/backup-1"};
  CHECK(check_journal_paths(j, "/t", "/t/.cudnnctl"));
  auto bad = j;
  bad.remove_on_commit.push_back("/victim");
  CHECK_FALSE(check_journal_paths(bad, "/t", "/t/.cudnnctl"));
  bad = j;
  bad.remove_on_rollback.push_back("/t/.cudnnctl/staging-1/../../include");
  CHECK_FALSE(check_journal_paths(bad, "/t", "/t/.cudnnctl"));
  bad = j;
  bad.remove_on_commit.push_back("/t/include");
  CHECK_FALSE(check_journal_paths(bad, "/t", "/t/.cudnnctl"));
  bad = j;
  bad.moves.push_back({"/t/.cudnnctl/payload", "/victim3/planted.sh"});
  CHECK_FALSE(check_journal_paths(bad, "/t", "/t/.cudnnctl"));
}

TEST_CASE("leftover folders are listed with their size, by prefix, never a backup or a link", "[state_check]") {
  TempDir tmp;
  const auto state = (tmp.path() / ".cudnnctl").string();
  CHECK(leftover_folders(state, {"staging-"}).empty());
  put(tmp.path() / ".cudnnctl/staging-dead/cudnn/lib/libcudnn.so.9", std::string(1000, 'x'));
  put(tmp.path() / ".cudnnctl/trash-dead/libcudnn_ops.so.9", std::string(10, 'x'));
  put(tmp.path() / ".cudnnctl/backup-1/x", "kept");
  std::filesystem::create_directory_symlink(tmp.path() / ".cudnnctl/backup-1", tmp.path() / ".cudnnctl/staging-link");
  const auto left = leftover_folders(state, {"staging-"});
  REQUIRE(left.size() == 1);
  CHECK(left[0].path == (tmp.path() / ".cudnnctl/staging-dead").string());
  CHECK(left[0].bytes == 1000);
  const auto both = leftover_folders(state, {"staging-", "trash-"});
  REQUIRE(both.size() == 2);
  CHECK(both[1].path == (tmp.path() / ".cudnnctl/trash-dead").string());
  CHECK(both[1].bytes == 10);
}

TEST_CASE("paths must resolve inside the toolkit: a link that leads out is refused, one that stays in is fine", "[state_check][links]") {
  TempDir tmp;
  const auto root = tmp.path() / "tk";
  put(root / "targets/x86_64-linux/lib/libcudnn.so.9");
  put(tmp.path() / "victim/keep.txt");
  fs::create_directory_symlink("targets/x86_64-linux/lib", root / "lib64");  // CUDA's own link: inside
  fs::create_directory_symlink("../victim", root / "lnk");                   // leads out
  fs::create_symlink("../victim/keep.txt", root / "file-link");             // a link as the last part: acted on as a link
  const auto r = root.string();
  CHECK(check_resolves_inside(r + "/lib64/libcudnn.so.9", r, "test"));
  CHECK(check_resolves_inside(r + "/lib64", r, "test", true));
  CHECK(check_resolves_inside(r + "/.cudnnctl/backup-1/lib64/libcudnn.so.9", r, "test"));  // not there yet
  CHECK(check_resolves_inside(r + "/file-link", r, "test"));
  const auto out = check_resolves_inside(r + "/lnk/keep.txt", r, "a path in the receipt");
  REQUIRE_FALSE(out);
  CHECK(out.error().code == ErrorCode::unsafe_state);
  CHECK_THAT(out.error().message, Catch::Contains("victim") && Catch::Contains("a path in the receipt"));
  CHECK_FALSE(check_resolves_inside(r + "/lnk", r, "test", true));
  CHECK_FALSE(check_resolves_inside(r + "/lnk/new/deeper.txt", r, "test"));
  CHECK_FALSE(check_resolves_inside(r + "/file-link", r, "test", true));

  Journal j;
  j.moves = {{r + "/lib64/libcudnn.so.9", r + "/.cudnnctl/backup-1/lib64/libcudnn.so.9"}};
  j.remove_on_rollback = {r + "/.cudnnctl/backup-1"};
  CHECK(check_journal_resolves(j, r));
  j.moves.push_back({r + "/.cudnnctl/copy.txt", r + "/lnk/keep.txt"});
  CHECK_FALSE(check_journal_resolves(j, r));
  j.moves.pop_back();
  fs::create_directories(root / ".cudnnctl");
  fs::create_directory_symlink("../../victim", root / ".cudnnctl/backup-1");  // a folder it removes is a link
  CHECK_FALSE(check_journal_resolves(j, r));
}

TEST_CASE("a bundle's journal may move between its two roots and nowhere else, links followed", "[state_check][links]") {
  TempDir tmp;
  const auto bundle = (tmp.path() / "site/nvidia/cudnn/lib").string();
  const auto state = (tmp.path() / "state/bundles/abc").string();
  put(fs::path(bundle) / "libcudnn.so.9");
  put(tmp.path() / "victim/keep.txt");
  fs::create_directories(state);
  fs::create_directory_symlink("../../victim", tmp.path() / "state/bundles/out");
  const std::vector<std::string> roots{bundle, state};
  Journal j;
  j.moves = {{bundle + "/libcudnn.so.9", state + "/backup-1/libcudnn.so.9"}};
  j.remove_on_rollback = {state + "/backup-1"};
  CHECK(check_journal_paths(j, roots, state));
  CHECK(check_journal_resolves(j, roots));
  CHECK_FALSE(check_journal_paths(j, std::vector<std::string>{bundle}, state));  // one root: the state end leaves it

  auto outside = j;  // lexically outside both
  outside.moves.push_back({bundle + "/libcudnn.so.9", (tmp.path() / "victim/x").string()});
  CHECK_FALSE(check_journal_paths(outside, roots, state));
  auto through_link = j;  // lexically below the state root's parent, resolved outside both
  through_link.moves.push_back({bundle + "/libcudnn.so.9", (tmp.path() / "state/bundles/out/keep.txt").string()});
  const auto r = check_journal_resolves(through_link, {bundle, (tmp.path() / "state/bundles").string()});
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::unsafe_state);
  CHECK_THAT(r.error().message, Catch::Contains("victim") && Catch::Contains(" or "));
}
