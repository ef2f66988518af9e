// trace names the framework a loaded cuDNN library belongs to: the package whose RECORD lists it in a
// bundle folder (the bundle module's owner), in the text and JSON reports.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/bundle/record.hpp"
#include "cudnnctl/trace/library_facts.hpp"
#include "cudnnctl/trace/trace_render.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {
std::string record_row(const fs::path& site, const fs::path& file) {
  const auto hex = sha256_file(file.string());
  REQUIRE(hex);
  return fs::relative(file, site).generic_string() + "," + record_hash_of_hex(*hex) + "," + std::to_string(fs::file_size(file)) + "\r\n";
}
} // namespace

TEST_CASE("trace: a cuDNN library in a framework's bundle is named with its owner", "[trace][bundles]") {
  TempDir tmp;
  const auto site = tmp.path() / "venv/lib/python3.12/site-packages";
  const auto lib = site / "torch/lib";
  put(lib / "libcudnn.so.9", "torch's cuDNN");
  put(lib / "libcudnn_ops.so.9", "not in torch's RECORD");
  put(site / "torch-2.5.1.dist-info/METADATA", "Metadata-Version: 2.1\r\nName: torch\r\nVersion: 2.5.1\r\n\r\n");
  put(site / "torch-2.5.1.dist-info/RECORD", record_row(site, lib / "libcudnn.so.9") + "torch-2.5.1.dist-info/RECORD,,\r\n");
  put(tmp.path() / "cuda/lib64/libcudnn.so.9", "the toolkit's");

  const auto bundled = describe_library_file((lib / "libcudnn.so.9").string());
  CHECK(bundled.bundle_owner == "torch 2.5.1");
  CHECK(bundled.bundle_dir == lib.string());
  CHECK(bundled.bundle_where == "site-packages/torch/lib");
  CHECK(bundle_text(bundled) == "torch 2.5.1 (bundled copy, site-packages/torch/lib)");
  // a file the RECORD does not list, and a toolkit's copy, belong to no bundle
  CHECK(describe_library_file((lib / "libcudnn_ops.so.9").string()).bundle_owner.empty());
  CHECK(describe_library_file((tmp.path() / "cuda/lib64/libcudnn.so.9").string()).bundle_owner.empty());
  CHECK(bundle_text(describe_library_file((tmp.path() / "cuda/lib64/libcudnn.so.9").string())).empty());

  // the report, through the describe seam as the real trace runs it
  const auto events = parse_trace_events("P\t7\t1\t/usr/bin/python3\t\n"
                                         "S\t7\tasked\tlibcudnn.so.9\t/py/_C.so\n"
                                         "S\t7\tRUNPATH\t" + (lib / "libcudnn.so.9").string() + "\t/py/_C.so\n"
                                         "O\t7\t" + (lib / "libcudnn.so.9").string() + "\t\t\n"
                                         "O\t7\t" + (tmp.path() / "cuda/lib64/libcudnn.so.9").string() + "\t\t\n");
  TraceSeams seams;
  seams.describe = [](const std::string& p) { return describe_library_file(p); };
  const auto r = build_trace_report(events, seams);
  REQUIRE(r.loaded.size() == 2);
  const auto text = trace_text(r, TraceRunInfo{{"python3", "x.py"}, 0, 0});
  CHECK_THAT(text, Catch::Contains("belongs to torch 2.5.1 (bundled copy, site-packages/torch/lib)"));
  CHECK(text.find("belongs to") == text.rfind("belongs to"));  // the toolkit's copy is not said to
  const auto json = trace_json(r, TraceRunInfo{{"python3", "x.py"}, 0, 0});
  const auto& libs = json.at("libraries");
  REQUIRE(libs.size() == 2);
  CHECK(libs[0].at("bundle").at("owner") == "torch 2.5.1");
  CHECK(libs[0].at("bundle").at("where") == "site-packages/torch/lib");
  CHECK(libs[0].at("bundle").at("text") == "torch 2.5.1 (bundled copy, site-packages/torch/lib)");
  CHECK(libs[1].at("bundle").is_null());
}
