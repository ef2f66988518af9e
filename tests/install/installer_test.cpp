#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "cudnnctl/base/crc32.hpp"
#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/platform/process.hpp"
#include "toolkit_trees.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {


// A test archive copied under NVIDIA's name, with its own hash as the expected one.
struct Archive {
  std::string path;
  ArchiveName name;
  std::vector<ExpectedHash> expected;
};
Archive archive(const TempDir& tmp, const std::string& source, const std::string& nvidia_name) {
  const auto p = (tmp.path() / nvidia_name).string();
  fs::copy_file(test_archive(source), p, fs::copy_options::overwrite_existing);
  auto n = parse_archive_name(nvidia_name);
  REQUIRE(n);
  return {p, *n, {{*sha256_file(p), "--sha256", std::nullopt}}};
}

InstallRequest request(const Archive& a, const fs::path& toolkit_root, bool dry_run = false) {
  auto t = read_toolkit(toolkit_root.string(), "--cuda-path");
  REQUIRE(t);
  InstallRequest r;
  r.archive_path = a.path;
  r.name = a.name;
  r.expected = a.expected;
  r.toolkit = *t;
  r.dry_run = dry_run;
  return r;
}

} // namespace

TEST_CASE("Windows zip into a CUDA 12.4 Windows tree: placed, receipted, idempotent, uninstalled byte for byte", "[installer]") {
  TempDir tmp;
  const auto root = windows_toolkit(tmp.path(), "12.4", false);
  const auto before = snapshot(root);
  const auto a = archive(tmp, "good/python-" + W91 + ".zip", W91 + ".zip");
  auto fs_ = make_real_fs();

  const auto dry = install_archive(request(a, root, true), *fs_);
  REQUIRE(dry);
  CHECK(dry->dry_run);
  CHECK(dry->changed);  // would change
  CHECK_FALSE(dry->plan.steps.empty());
  CHECK(snapshot(root) == before);
  CHECK_FALSE(fs::exists(root / ".cudnnctl"));  // a dry run writes nothing

  const auto first = install_archive(request(a, root), *fs_);
  REQUIRE(first);
  CHECK(first->changed);
  CHECK(fs::exists(root / "bin/cudnn64_9.dll"));
  CHECK(fs::exists(root / "bin/cudnn_cnn64_9.dll"));
  CHECK(fs::exists(root / "include/cudnn_version.h"));
  CHECK(fs::exists(root / "lib/x64/cudnn_ops.lib"));
  CHECK_FALSE(fs::exists(root / "bin/bin"));
  CHECK(fs::exists(root / ".cudnnctl/cudnn-9.1.0.70-LICENSE"));
  CHECK(fs::exists(root / ".cudnnctl/receipt.json"));
  REQUIRE(first->receipt);
  CHECK(first->receipt->files.size() == 8);
  for (const auto& f : first->receipt->files) {  // each file's CRC-32 as it lies in the toolkit
    INFO(f.path);
    REQUIRE(f.crc32);
    CHECK(*f.crc32 == *crc32_file((root / f.path).string()));
    CHECK(f.sha256.empty());
  }
  // a fresh toolkit: nothing was replaced, so no backup is named; the counts add up
  CHECK_THAT(first->summary, Catch::EndsWith(": 8 files placed (8 new, 0 replaced)"));
  CHECK_THAT(first->summary, !Catch::Contains("backup") && !Catch::Contains("kept"));
  CHECK(first->receipt->backup_dir == ".cudnnctl/backup-" + first->receipt->id);
  CHECK(check_receipt(*first->receipt, root.string(), *fs_).empty());
  CHECK(std::distance(fs::directory_iterator(root / ".cudnnctl"), fs::directory_iterator()) >= 2);

  const auto again = install_archive(request(a, root), *fs_);
  REQUIRE(again);
  CHECK_FALSE(again->changed);
  CHECK_THAT(again->summary, Catch::Contains("already installed"));
  // the dry run of the same archive: nothing would change (Ansible's check mode reads this)
  const auto dry_again = install_archive(request(a, root, true), *fs_);
  REQUIRE(dry_again);
  CHECK_FALSE(dry_again->changed);
  CHECK_THAT(dry_again->summary, Catch::Contains("nothing would change"));

  // a file emptied behind our back (antivirus) is found and repaired
  std::ofstream(root / "bin/cudnn_ops64_9.dll", std::ios::trunc).close();
  const auto dry_repair = install_archive(request(a, root, true), *fs_);
  REQUIRE(dry_repair);
  CHECK(dry_repair->changed);
  CHECK_THAT(dry_repair->summary, Catch::Contains("would repair") && Catch::Contains("1 file to re-place"));
  CHECK(fs::file_size(root / "bin/cudnn_ops64_9.dll") == 0);
  const auto repaired = install_archive(request(a, root), *fs_);
  REQUIRE(repaired);
  CHECK(repaired->changed);
  CHECK_FALSE(repaired->warnings.empty());
  CHECK(fs::file_size(root / "bin/cudnn_ops64_9.dll") == 40000);

  // a repair re-places only what differs and stacks nothing: one uninstall restores the tree
  CHECK_THAT(repaired->summary, Catch::Contains("1 file re-placed"));
  REQUIRE(uninstall_cudnn(*read_toolkit(root.string(), "t"), *fs_));
  CHECK(snapshot(root) == before);
  CHECK_FALSE(fs::exists(root / ".cudnnctl"));
  const auto none = uninstall_cudnn(*read_toolkit(root.string(), "t"), *fs_);
  REQUIRE_FALSE(none);
  CHECK_THAT(none.error().message, Catch::Contains("installed nothing"));
}

TEST_CASE("CUDA 13 trees keep DLLs in bin/x64, Linux trees keep symlink chains in lib64", "[installer]") {
  TempDir tmp;
  const auto win13 = windows_toolkit(tmp.path(), "13.0", true);
  auto fs_ = make_real_fs();
  // a 9.1 cuda12 zip into a CUDA 13 tree is refused: CUDA major differs
  const auto w = archive(tmp, "good/python-" + W91 + ".zip", W91 + ".zip");
  const auto refused = install_archive(request(w, win13), *fs_);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::incompatible);
  CHECK_FALSE(fs::exists(win13 / ".cudnnctl"));
  auto forced = request(w, win13);
  forced.force = true;
  REQUIRE(install_archive(forced, *fs_));
  CHECK(fs::exists(win13 / "bin/x64/cudnn64_9.dll"));

  const auto lin = linux_toolkit(tmp.path(), "12.4");
  put(lin / "targets/x86_64-linux/lib/libcudnn_cnn_infer.so.8", "cuDNN 8 leftover");
  const auto before = snapshot(lin);
  const auto l = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto done = install_archive(request(l, lin), *fs_);
  REQUIRE(done);
  CHECK(fs::is_symlink(lin / "lib64/libcudnn.so.9"));
  CHECK(fs::read_symlink(lin / "lib64/libcudnn.so.9") == "libcudnn.so.9.1.0");
  CHECK(fs::is_regular_file(lin / "targets/x86_64-linux/lib/libcudnn.so.9.1.0"));
  CHECK_FALSE(fs::exists(lin / "lib64/libcudnn_cnn_infer.so.8"));  // the stale 8.x sub-library is gone
  REQUIRE(uninstall_cudnn(*read_toolkit(lin.string(), "t"), *fs_));
  CHECK(snapshot(lin) == before);

  // a Windows archive never goes into a Linux tree
  const auto wrong = install_archive(request(w, lin), *fs_);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().code == ErrorCode::incompatible);
  CHECK(snapshot(lin) == before);
}

TEST_CASE("legacy cuda/ archives install too", "[installer]") {
  TempDir tmp;
  auto fs_ = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "11.2");
  const auto tgz = archive(tmp, "good/cudnn-11.2-linux-x64-v8.1.1.33.tgz", "cudnn-11.2-linux-x64-v8.1.1.33.tgz");
  REQUIRE(install_archive(request(tgz, lin), *fs_));
  CHECK(fs::exists(lin / "lib64/libcudnn.so.8.1.1"));
  const auto win = windows_toolkit(tmp.path(), "10.2", false);
  const auto zip = archive(tmp, "good/cudnn-10.2-windows10-x64-v7.6.5.32.zip", "cudnn-10.2-windows10-x64-v7.6.5.32.zip");
  REQUIRE(install_archive(request(zip, win), *fs_));
  CHECK(fs::exists(win / "bin/cudnn64_7.dll"));
  CHECK(fs::exists(win / "lib/x64/cudnn.lib"));
}

TEST_CASE("CUDA 11.8 trees: a 9.1 cuda11 tarball, and an 8.6 zip whose import libraries sit in lib/", "[installer]") {
  TempDir tmp;
  auto fs_ = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "11.8");
  const auto l11 = archive(tmp, "good/cudnn-linux-x86_64-9.1.0.70_cuda11-archive.tar.xz", "cudnn-linux-x86_64-9.1.0.70_cuda11-archive.tar.xz");
  REQUIRE(install_archive(request(l11, lin), *fs_));
  CHECK(fs::is_symlink(lin / "lib64/libcudnn_ops.so.9"));
  const auto win = windows_toolkit(tmp.path(), "11.8", false);
  const auto z86 = archive(tmp, "good/cudnn-windows-x86_64-8.6.0.163_cuda11-archive.zip", "cudnn-windows-x86_64-8.6.0.163_cuda11-archive.zip");
  REQUIRE(install_archive(request(z86, win), *fs_));
  CHECK(fs::exists(win / "lib/x64/cudnn.lib"));
  CHECK(fs::exists(win / "bin/cudnn_cnn_infer64_8.dll"));
  // a cuda12 archive is refused by an 11.8 tree
  const auto l12 = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  CHECK(install_archive(request(l12, lin), *fs_).error().code == ErrorCode::incompatible);
}

TEST_CASE("a second run on the same toolkit is refused while the first holds the lock", "[installer]") {
  TempDir tmp;
  auto fs_ = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  fs::create_directories(lin / ".cudnnctl");
  auto held = platform::FileLock::acquire((lin / ".cudnnctl/lock").string());
  REQUIRE(held);
  const auto a = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto r = install_archive(request(a, lin), *fs_);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("another cudnnctl run"));
  CHECK_FALSE(fs::exists(lin / "lib64/libcudnn.so.9"));
}

TEST_CASE("content that disagrees with the name, or is not cuDNN's, is refused and nothing stays", "[installer]") {
  TempDir tmp;
  auto fs_ = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  const auto before = snapshot(lin);
  for (const auto& [source, why] : std::vector<std::pair<std::string, std::string>>{
           {"odd/header-mismatch.tar.xz", "cuDNN 9.2.0"},
           {"odd/wrong-major-lib.tar.xz", "cuDNN 8 library"},
           {"odd/replaces-cuda-h.tar.xz", "cuda.h"}}) {
    INFO(source);
    const auto a = archive(tmp, source, L91 + ".tar.xz");
    const auto r = install_archive(request(a, lin), *fs_);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_layout);
    CHECK_THAT(r.error().message, Catch::Contains(why));
    CHECK(snapshot(lin) == before);
    CHECK_FALSE(fs::exists(lin / ".cudnnctl"));
  }
  auto bad_hash = request(archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz"), lin);
  bad_hash.expected = {{std::string(64, 'a'), "--sha256", std::nullopt}};
  const auto r = install_archive(bad_hash, *fs_);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::hash_mismatch);
  CHECK(snapshot(lin) == before);
  CHECK_FALSE(fs::exists(lin / ".cudnnctl"));
}

TEST_CASE("the staged-library check sees the staged lib folder once the hash matched, and its refusal writes nothing", "[installer]") {
  TempDir tmp;
  auto fs_ = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  const auto before = snapshot(lin);
  const auto l = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  std::vector<std::string> seen;
  auto req = request(l, lin);
  req.check_staged_libraries = [&seen](const std::string& dir) -> Result<void> {
    seen.push_back(dir);
    CHECK(fs::exists(fs::path(dir) / "libcudnn.so.9.1.0"));  // the staged copy, read before anything moves
    return Unexpected<Error>(Error{ErrorCode::host_too_old, "needs GLIBC_2.99", "use an older release", ""});
  };
  const auto r = install_archive(req, *fs_);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::host_too_old);
  CHECK(seen.size() == 1);
  CHECK(snapshot(lin) == before);
  CHECK_FALSE(fs::exists(lin / ".cudnnctl"));

  // a damaged archive never reaches the check: the hash speaks first
  seen.clear();
  req.expected = {{std::string(64, 'a'), "--sha256", std::nullopt}};
  const auto bad = install_archive(req, *fs_);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::hash_mismatch);
  CHECK(seen.empty());

  // a Windows zip: the hook is asked with the staged folder of its DLLs (bin/, where cudnn64_9.dll is), so the
  // GPU-code gate judges a Windows archive's libraries as it does a Linux one's; its refusal writes nothing
  const auto win = windows_toolkit(tmp.path(), "12.4", false);
  const auto win_before = snapshot(win);
  auto wreq = request(archive(tmp, "good/python-" + W91 + ".zip", W91 + ".zip"), win);
  wreq.check_staged_libraries = [&seen](const std::string& dir) -> Result<void> {
    seen.push_back(dir);
    CHECK(fs::exists(fs::path(dir) / "cudnn64_9.dll"));
    return Unexpected<Error>(Error{ErrorCode::no_gpu_code, "no code for sm_120", "install a release built for sm_120", ""});
  };
  const auto refused = install_archive(wreq, *fs_);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::no_gpu_code);
  REQUIRE(seen.size() == 1);
  CHECK_THAT(seen[0], Catch::EndsWith("/bin/"));
  CHECK(snapshot(win) == win_before);
  wreq.check_staged_libraries = [&seen](const std::string& dir) -> Result<void> { seen.push_back(dir); return {}; };
  REQUIRE(install_archive(wreq, *fs_));
  CHECK(seen.size() == 2);
}

TEST_CASE("a failure at every step of the transaction leaves the tree old (ENOSPC, EACCES, failed rename)", "[installer][faults]") {
  TempDir tmp;
  auto real = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  put(lin / "targets/x86_64-linux/lib/libcudnn_cnn_infer.so.8", "cuDNN 8 leftover");
  put(lin / "include/cudnn_version.h", "an older header");
  const auto a = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto before = snapshot(lin);

  // count the changing calls of a clean run, and keep what the new tree looks like
  FaultyFs counting(*real, std::nullopt, Fault::no_space);
  REQUIRE(install_archive(request(a, lin), counting));
  const auto after = snapshot(lin);
  const int changes = counting.changes();
  REQUIRE(changes > 10);
  REQUIRE(uninstall_cudnn(*read_toolkit(lin.string(), "t"), *real));
  REQUIRE(snapshot(lin) == before);

  for (const auto fault : {Fault::no_space, Fault::access_denied, Fault::rename_failed}) {
    for (int n = 1; n <= changes; ++n) {
      INFO("fault " << static_cast<int>(fault) << " at change " << n);
      FaultyFs faulty(*real, n, fault);
      const auto r = install_archive(request(a, lin), faulty);
      REQUIRE(faulty.fired());
      // the next run finishes or rolls back whatever is left, then the tree must be old or new
      REQUIRE(recover(*real, (lin / ".cudnnctl").string()));
      const auto now = snapshot(lin);
      if (r) {
        CHECK(now == after);
        REQUIRE(uninstall_cudnn(*read_toolkit(lin.string(), "t"), *real));
      } else {
        CHECK(now == before);
      }
      REQUIRE(snapshot(lin) == before);
      fs::remove_all(lin / ".cudnnctl");
    }
  }
}

TEST_CASE("a killed install is rolled back or finished by the next run", "[installer][kill]") {
  TempDir tmp;
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  put(lin / "include/cudnn_version.h", "an older header");
  const auto a = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto before = snapshot(lin);
  const std::string hash = a.expected[0].sha256;
  const std::string cmd = std::string(CUDNNCTL_BINARY) + " install '" + a.path + "' --sha256 " + hash + " --cuda-path '" + lin.string() + "'";

  REQUIRE(std::system((cmd + " > /dev/null 2>&1").c_str()) == 0);
  const auto after = snapshot(lin);
  // moves of this install: every file in, every original out, and the receipt
  const auto receipt = receipt_from_json(*make_real_fs()->read_text((lin / ".cudnnctl/receipt.json").string()), "receipt");
  REQUIRE(receipt);
  const int moves = static_cast<int>(receipt->files.size() + receipt->replaced.size() + 1);
  REQUIRE(std::system((std::string(CUDNNCTL_BINARY) + " uninstall --cuda-path '" + lin.string() + "' > /dev/null 2>&1").c_str()) == 0);
  REQUIRE(snapshot(lin) == before);

  std::vector<std::string> kills = {"CUDNNCTL_FAULT_KILL_AT=journaled", "CUDNNCTL_FAULT_KILL_AT=committed"};
  for (int n = 1; n <= moves; ++n) kills.push_back("CUDNNCTL_FAULT_KILL_AFTER_MOVES=" + std::to_string(n));
  auto real = make_real_fs();
  for (const auto& kill : kills) {
    INFO(kill);
    const int status = std::system((kill + " " + cmd + " > /dev/null 2>&1").c_str());
    const bool killed = status != 0;
    CHECK(killed);
    const auto state = (lin / ".cudnnctl").string();
    const bool had_journal = fs::exists(state + "/journal.json");
    auto recovered = recover(*real, state);
    REQUIRE(recovered);
    if (had_journal) CHECK_FALSE(recovered->empty());
    const auto now = snapshot(lin);
    const bool committed = kill.find("committed") != std::string::npos;
    CHECK(now == (committed ? after : before));
    if (now == after) REQUIRE(std::system((std::string(CUDNNCTL_BINARY) + " uninstall --cuda-path '" + lin.string() + "' > /dev/null 2>&1").c_str()) == 0);
    fs::remove_all(state);
    REQUIRE(snapshot(lin) == before);
  }
}

TEST_CASE("moves across file systems (every move a copy): modes and links kept, every fault rolled back", "[installer][cross_fs]") {
  TempDir tmp;
  auto copying = make_real_fs(true);  // every move as if its target were on another file system
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  put(lin / "targets/x86_64-linux/lib/libcudnn_cnn_infer.so.8", "cuDNN 8 leftover");
  put(lin / "include/cudnn_version.h", "an older header");
  fs::permissions(lin / "include/cudnn_version.h", fs::perms::owner_read | fs::perms::group_read);  // 0440, kept in the backup
  const auto a = archive(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto before = snapshot(lin);

  FaultyFs counting(*copying, std::nullopt, Fault::no_space);
  const auto done = install_archive(request(a, lin), counting);
  REQUIRE(done);
  const auto lib = lin / "targets/x86_64-linux/lib";
  CHECK(fs::read_symlink(lib / "libcudnn.so.9") == "libcudnn.so.9.1.0");
  CHECK((fs::status(lib / "libcudnn.so.9.1.0").permissions() & fs::perms::owner_exec) != fs::perms::none);
  const auto backup = lin / done->receipt->backup_dir;
  // the header replaced and the stale library removed: both originals kept, in this machine's convention
  CHECK_THAT(done->summary, Catch::Contains("placed (" + std::to_string(done->receipt->files.size() - 1) + " new, 1 replaced), 1 stale cuDNN file removed; "
                                            "the 2 originals are kept in .cudnnctl/backup-" + done->receipt->id));
  CHECK((fs::status(backup / "include/cudnn_version.h").permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::group_read));
  const auto after = snapshot(lin);
  const int changes = counting.changes();
  REQUIRE(uninstall_cudnn(*read_toolkit(lin.string(), "t"), *copying));
  REQUIRE(snapshot(lin) == before);
  CHECK((fs::status(lin / "include/cudnn_version.h").permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::group_read));

  for (const auto fault : {Fault::no_space, Fault::access_denied}) {
    for (int n = 1; n <= changes; ++n) {
      INFO("fault " << static_cast<int>(fault) << " at change " << n);
      FaultyFs faulty(*copying, n, fault);
      const auto r = install_archive(request(a, lin), faulty);
      REQUIRE(faulty.fired());
      REQUIRE(recover(*copying, (lin / ".cudnnctl").string()));
      if (r) {
        CHECK(snapshot(lin) == after);
        REQUIRE(uninstall_cudnn(*read_toolkit(lin.string(), "t"), *copying));
      }
      REQUIRE(snapshot(lin) == before);
      fs::remove_all(lin / ".cudnnctl");
    }
  }
}

TEST_CASE("a crash inside a move across file systems is rolled back by the next run", "[installer][cross_fs]") {
  TempDir tmp;
  auto real = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  const auto root = lin.string();
  const auto state = root + "/.cudnnctl";
  put(lin / "include/cudnn_version.h", "old header");
  const auto before = snapshot(lin);
  const std::string staging = state + "/staging-x", backup = state + "/backup-x";
  const nlohmann::json moves = {{{"from", root + "/include/cudnn_version.h"}, {"to", backup + "/include/cudnn_version.h"}},
                                {{"from", staging + "/cudnn_version.h"}, {"to", root + "/include/cudnn_version.h"}},
                                {{"from", staging + "/libcudnn.so.9"}, {"to", root + "/lib64/libcudnn.so.9"}}};
  auto journal = [&](int schema) {
    return nlohmann::json{{"schema_version", schema}, {"id", "x"},        {"description", "install test"}, {"phase", "applying"},
                          {"moves", moves},           {"remove_on_commit", {staging}}, {"remove_on_rollback", {staging, backup}}}
        .dump();
  };
  auto original_moved_to_backup = [&] {
    put(staging + "/cudnn_version.h", "new header");
    put(staging + "/libcudnn.so.9", "new library");
    fs::create_directories(backup + "/include");
    fs::rename(root + "/include/cudnn_version.h", backup + "/include/cudnn_version.h");
  };

  SECTION("the last move's copy is in place, its source not removed yet") {
    original_moved_to_backup();
    fs::copy_file(staging + "/cudnn_version.h", root + "/include/cudnn_version.h");
    put(journal_path(state), journal(2));
    put(progress_path(state), "journal x\ndo 0\ndo 1\n");
  }
  SECTION("the last move's copy is half written beside its target") {
    original_moved_to_backup();
    fs::rename(staging + "/cudnn_version.h", root + "/include/cudnn_version.h");
    put(lin / "lib64/libcudnn.so.9.cudnnctl-part", "new lib");
    put(journal_path(state), journal(2));
    put(progress_path(state), "journal x\ndo 0\ndo 1\ndo 2\n");
  }
  const auto r = recover(*real, state);
  INFO((r ? *r : r.error().message));
  REQUIRE(r);
  CHECK_THAT(*r, Catch::Contains("as it was"));
  CHECK(snapshot(lin) == before);
  CHECK_FALSE(fs::exists(journal_path(state)));
  CHECK_FALSE(fs::exists(progress_path(state)));
  CHECK_FALSE(fs::exists(staging));
}

TEST_CASE("recovery never deletes a file the toolkit had: a move the progress does not prove is not undone", "[installer][kill]") {
  TempDir tmp;
  auto real = make_real_fs();
  const auto lin = linux_toolkit(tmp.path(), "12.4");
  const auto root = lin.string();
  const auto state = root + "/.cudnnctl";
  // the same release copied in by hand: the toolkit's own header has the staged one's content
  put(lin / "include/cudnn.h", "same content");
  const std::string staging = state + "/staging-x", backup = state + "/backup-x";
  put(staging + "/cudnn.h", "same content");
  const auto before = snapshot(lin);
  for (const int schema : {1, 2}) {
    INFO("schema " << schema);
    // killed right after the journal: no move began (schema 2: the progress says so; 1: an older cudnnctl's journal)
    put(journal_path(state), nlohmann::json{{"schema_version", schema}, {"id", "x"}, {"description", "install test"}, {"phase", "applying"},
                                            {"moves", {{{"from", root + "/include/cudnn.h"}, {"to", backup + "/include/cudnn.h"}},
                                                       {{"from", staging + "/cudnn.h"}, {"to", root + "/include/cudnn.h"}}}},
                                            {"remove_on_commit", {staging}}, {"remove_on_rollback", {backup}}}
                                 .dump());
    if (schema == 2) put(progress_path(state), "journal x\n");
    const auto r = recover(*real, state);
    REQUIRE(r);
    if (schema == 1) CHECK_THAT(*r, Catch::Contains("1 move with a file at both ends") && !Catch::Contains("as it was"));
    CHECK(snapshot(lin) == before);
    CHECK(fs::exists(lin / "include/cudnn.h"));
  }
}
