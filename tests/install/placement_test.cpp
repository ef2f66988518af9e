#include <catch2/catch.hpp>

#include "cudnnctl/install/placement.hpp"

using namespace cudnnctl;

TEST_CASE("placement: the receipt and journal an install leaves, from its plan alone", "[placement]") {
  const auto name = parse_archive_name("cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz");
  REQUIRE(name);
  Toolkit tk;
  tk.root = "/opt/cuda-12.4";
  tk.version = "12.4";
  tk.lib_dir = "lib64";
  tk.include_dir = "include";
  InstallPlan plan;
  const std::string top = name->top_folder();
  plan.steps = {
      {StepKind::copy_file, top + "/lib/libcudnn.so.9.1.0", "lib64/libcudnn.so.9.1.0", "", 100, false},
      {StepKind::copy_file, top + "/include/cudnn.h", "include/cudnn.h", "", 10, true},
      {StepKind::make_symlink, top + "/lib/libcudnn.so.9", "lib64/libcudnn.so.9", "libcudnn.so.9.1.0", 0, false},
      {StepKind::remove_stale, "", "lib64/libcudnn_ops_infer.so.8", "", 0, false},
  };
  const std::map<std::string, std::uint32_t> crcs = {{top + "/lib/libcudnn.so.9.1.0", 0xaau}, {top + "/include/cudnn.h", 0xbbu}};
  const auto p = make_placement({plan, *name, tk, "ID", "/opt/cuda-12.4/.cudnnctl/staging-ID", "cudnn.tar.xz", "ff", "catalog",
                                 "2026-12-03T20:00:00Z", crcs});

  CHECK(p.backup_relative == ".cudnnctl/backup-ID");
  const auto& r = p.receipt;
  CHECK(r.id == "ID");
  CHECK(r.canonical_name == name->canonical);
  CHECK(r.version == "9.1.0.70");
  CHECK(r.sha256 == "ff");
  CHECK(r.verified_by == "catalog");
  CHECK(r.toolkit_version == "12.4");
  CHECK(r.backup_dir == ".cudnnctl/backup-ID");
  REQUIRE(r.files.size() == 3);  // the stale file is not one of ours
  CHECK(r.files[0].path == "lib64/libcudnn.so.9.1.0");
  CHECK(r.files[0].crc32 == 0xaau);
  CHECK(r.files[0].sha256.empty());  // receipts of schema 2 record a file's CRC-32 (receipt.hpp says why)
  CHECK(r.files[0].size == 100);
  CHECK(r.files[1].crc32 == 0xbbu);
  CHECK(r.files[2].kind == "symlink");
  CHECK(r.files[2].link_target == "libcudnn.so.9.1.0");
  CHECK_FALSE(r.files[2].crc32);
  REQUIRE(r.replaced.size() == 2);  // the header it replaces and the stale file, both kept in the backup
  CHECK(r.replaced[0].path == "include/cudnn.h");
  CHECK(r.replaced[0].backup == ".cudnnctl/backup-ID/include/cudnn.h");
  CHECK(r.replaced[1].path == "lib64/libcudnn_ops_infer.so.8");

  const auto& j = p.journal;
  CHECK(j.id == "ID");
  CHECK(j.description == "install " + name->canonical + " into /opt/cuda-12.4");
  const std::vector<std::pair<std::string, std::string>> moves = {
      {"/opt/cuda-12.4/.cudnnctl/staging-ID/" + top + "/lib/libcudnn.so.9.1.0", "/opt/cuda-12.4/lib64/libcudnn.so.9.1.0"},
      {"/opt/cuda-12.4/include/cudnn.h", "/opt/cuda-12.4/.cudnnctl/backup-ID/include/cudnn.h"},  // moved aside first
      {"/opt/cuda-12.4/.cudnnctl/staging-ID/" + top + "/include/cudnn.h", "/opt/cuda-12.4/include/cudnn.h"},
      {"/opt/cuda-12.4/.cudnnctl/staging-ID/" + top + "/lib/libcudnn.so.9", "/opt/cuda-12.4/lib64/libcudnn.so.9"},
      {"/opt/cuda-12.4/lib64/libcudnn_ops_infer.so.8", "/opt/cuda-12.4/.cudnnctl/backup-ID/lib64/libcudnn_ops_infer.so.8"},
  };
  REQUIRE(j.moves.size() == moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    INFO("move " << i);
    CHECK(j.moves[i].from == moves[i].first);
    CHECK(j.moves[i].to == moves[i].second);
  }
  CHECK(j.remove_on_commit == std::vector<std::string>{"/opt/cuda-12.4/.cudnnctl/staging-ID"});
  CHECK(j.remove_on_rollback == std::vector<std::string>{"/opt/cuda-12.4/.cudnnctl/staging-ID", "/opt/cuda-12.4/.cudnnctl/backup-ID"});
}
