#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cudnnctl/catalog/release_resolver.hpp"

using namespace cudnnctl;

namespace {

const std::string k_hash(64, 'a');

nlohmann::json archive_row(const std::string& platform, const std::string& build, const std::string& cuda) {
  const auto ext = platform.starts_with("windows") ? ".zip" : ".tar.xz";
  const auto name = "cudnn-" + platform + "-" + build + "_cuda" + cuda + "-archive" + ext;
  return {{"filename", name},
          {"version", build},
          {"platform", platform},
          {"cuda_variant", cuda},
          {"url", "https://example.invalid/" + name},
          {"hashes", {{{"sha256", k_hash}, {"sources", {"test"}}}}}};
}

nlohmann::json support_row(const std::string& release, const std::string& cuda, std::vector<std::string> toolkits, const std::string& driver,
                           std::vector<std::string> ccs) {
  return {{"release", release},       {"cuda_variant", cuda},        {"cuda_toolkits", toolkits}, {"min_driver_linux", driver},
          {"min_driver_windows", ""}, {"compute_capabilities", ccs}, {"source", "test"}};
}

// 9.28 (no support rows: as a release learnt from a manifest), 9.17 (one row per variant), 9.10.2 (two CUDA 12
// rows: 12.8+ with Blackwell and a newer driver minimum, and 12.0+ without; a CUDA 11 row), and one Windows archive.
const Catalog& table_catalog() {
  static const Catalog c = [] {
    const std::vector<std::string> old_ccs{"5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"};
    const std::vector<std::string> new_ccs{"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"};
    auto blackwell = old_ccs;
    blackwell.insert(blackwell.end(), {"10.0", "12.0"});
    const std::vector<std::string> all12{"12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9"};
    nlohmann::json doc{{"schema_version", 1}};
    doc["archives"] = {archive_row("linux-x86_64", "9.10.2.21", "11"), archive_row("linux-x86_64", "9.10.2.21", "12"),
                       archive_row("linux-x86_64", "9.17.0.10", "12"), archive_row("linux-x86_64", "9.17.0.10", "13"),
                       archive_row("linux-x86_64", "9.17.1.4", "12"),  archive_row("linux-x86_64", "9.28.1.4", "12"),
                       archive_row("linux-x86_64", "9.28.1.4", "13"),  archive_row("windows-x86_64", "9.28.1.4", "13")};
    doc["support"] = {support_row("9.10.2", "11", {"11.8"}, "450.80.02", old_ccs), support_row("9.10.2", "12", {"12.8", "12.9"}, "570.26", blackwell),
                      support_row("9.10.2", "12", all12, "525.60.13", old_ccs), support_row("9.17.0", "12", all12, "525.60.13", new_ccs),
                      support_row("9.17.0", "13", {"13.0", "13.1"}, "580.65.06", new_ccs)};
    auto parsed = Catalog::parse(doc.dump(), "table.json");
    REQUIRE(parsed);
    return *parsed;
  }();
  return c;
}

MachineFacts machine(std::optional<std::string> toolkit, std::string driver, std::vector<MachineGpu> gpus) {
  MachineFacts f;
  f.platform = "linux-x86_64";
  if (toolkit) f.toolkit = ToolkitFact{"/opt/cuda-" + *toolkit, *toolkit};
  f.driver_version = std::move(driver);
  f.gpus = std::move(gpus);
  return f;
}

const MachineGpu k_rtx3090{"NVIDIA GeForce RTX 3090", 8, 6};
const MachineGpu k_gtx1080{"NVIDIA GeForce GTX 1080", 6, 1};
const MachineGpu k_rtx5090{"NVIDIA GeForce RTX 5090", 12, 0};
const MachineGpu k_gb10{"NVIDIA GB10", 12, 1};

std::string linux_name(const std::string& build, const std::string& cuda) {
  return "cudnn-linux-x86_64-" + build + "_cuda" + cuda + "-archive.tar.xz";
}

struct Row {
  const char* what;
  std::string request;
  MachineFacts facts;
  std::string chosen;                       // empty: no archive fits (catalog.no-fitting-release)
  std::vector<std::string> passed_reasons;  // one substring per archive passed over, newest first
};

}  // namespace

TEST_CASE("resolver: GPUs x driver x toolkit x catalog", "[release_resolver]") {
  const std::vector<Row> rows{
      {"CUDA 13 toolkit, new driver: the newest release, its support checked after download",
       "latest",
       machine("13.0", "590.44.01", {k_rtx3090}),
       linux_name("9.28.1.4", "13"),
       {}},
      {"CUDA 12 toolkit: the CUDA 13 build is passed over for the toolkit",
       "latest",
       machine("12.4", "550.54.15", {k_rtx3090}),
       linux_name("9.28.1.4", "12"),
       {"for CUDA 13; the toolkit at /opt/cuda-12.4 is CUDA 12.4"}},
      {"CUDA 13 toolkit, R550 driver: nothing fits",
       "latest",
       machine("13.0", "550.54.15", {}),
       "",
       {"needs driver >= 580.65.06 (CUDA 13); this machine has 550.54.15", "for CUDA 12; the toolkit at /opt/cuda-13.0 is CUDA 13.0",
        "needs driver >= 580.65.06", "for CUDA 12", "for CUDA 12", "for CUDA 11"}},
      {"no toolkit, a GTX 1080 on 9.17: the support matrix dropped sm_61",
       "9.17",
       machine(std::nullopt, "560.35.03", {k_gtx1080}),
       "",
       {"needs driver >= 580.65.06", "support matrix lists no sm_61 (GPU 0: NVIDIA GeForce GTX 1080)"}},
      {"no toolkit, a GTX 1080 on 9.10: the 12.0+ row lists sm_61 although the 12.8 row does not",
       "9.10",
       machine(std::nullopt, "560.35.03", {k_gtx1080}),
       linux_name("9.10.2.21", "12"),
       {}},
      {"RTX 5090 with a CUDA 12.8 toolkit and R570: the Blackwell row fits",
       "9.10",
       machine("12.8", "570.86.15", {k_rtx5090}),
       linux_name("9.10.2.21", "12"),
       {}},
      {"RTX 5090 with a CUDA 12.4 toolkit: only the 12.0+ row applies, and it has no sm_120",
       "9.10.2",
       machine("12.4", "570.86.15", {k_rtx5090}),
       "",
       {"support matrix lists no sm_120 (GPU 0: NVIDIA GeForce RTX 5090)", "for CUDA 11; the toolkit at /opt/cuda-12.4 is CUDA 12.4"}},
      {"CUDA 12.8 toolkit, R560: below the Blackwell row's minimum, and the other row lacks sm_120",
       "9.10",
       machine("12.8", "560.35.03", {k_rtx5090}),
       "",
       {"sm_120", "for CUDA 11"}},
      {"CUDA 11.8 toolkit: the support row lists it",
       "9",
       machine("11.8", "560.35.03", {k_rtx3090}),
       linux_name("9.10.2.21", "11"),
       {"for CUDA 13", "for CUDA 12", "for CUDA 12", "for CUDA 13", "for CUDA 12", "for CUDA 12"}},
      {"a toolkit older than the support row lists",
       "9.10",
       machine("11.2", "590.44.01", {}),
       "",
       {"for CUDA 12", "support matrix lists CUDA 11.8 for cuDNN 9.10.2 (CUDA 11); the toolkit at /opt/cuda-11.2 is CUDA 11.2"}},
      {"a toolkit newer than the support row lists (install refuses it too)",
       "9.17",
       machine("13.2", "590.44.01", {}),
       "",
       {"support matrix lists CUDA 13.0 to 13.1 for cuDNN 9.17.0 (CUDA 13); the toolkit at /opt/cuda-13.2 is CUDA 13.2", "for CUDA 12"}},
      {"two GPUs, one too old for 9.17",
       "9.17.0.10",
       machine("12.9", "590.44.01", {k_rtx3090, k_gtx1080}),
       "",
       {"for CUDA 13", "support matrix lists no sm_61 (GPU 1: NVIDIA GeForce GTX 1080)"}},
      {"GB10 (12.1) runs what a 12.0 row lists", "9.17", machine("13.0", "580.95.05", {k_gb10}), linux_name("9.17.0.10", "13"), {"for CUDA 12"}},
      {"a patch release without a row of its own: 9.17.0's row stands in",
       "9.17",
       machine("12.4", "560.35.03", {k_rtx3090}),
       linux_name("9.17.1.4", "12"),
       {}},
      {"a patch release without a row of its own refuses what 9.17.0's row lacks",
       "9.17",
       machine("12.4", "560.35.03", {k_gtx1080}),
       "",
       {"cudnn-linux-x86_64-9.17.1.4_cuda12-archive.tar.xz: support matrix lists no sm_61 (GPU 0: NVIDIA GeForce GTX 1080) (the row of 9.17.0 "
        "stands for its patch release 9.17.1)"}},
      {"a GTX 1080 asking for latest: 9.28 has no support row, and the sourced architecture spans say it has no Pascal code",
       "latest",
       machine("12.4", "560.35.03", {k_gtx1080}),
       linux_name("9.10.2.21", "12"),
       {"for CUDA 13", "GPU 0 NVIDIA GeForce GTX 1080: cuDNN 9.28.1 has no code for Maxwell, Pascal and Volta GPUs (compute 6.1): the last release for them is 9.10.2",
        "support matrix lists no sm_61", "for CUDA 13", "support matrix lists no sm_61"}},
      {"nothing known about the machine: the newest build and variant", "latest", machine(std::nullopt, "", {}), linux_name("9.28.1.4", "13"), {}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const auto r = resolve_release(table_catalog(), row.request, row.facts);
    if (row.chosen.empty()) {
      REQUIRE_FALSE(r);
      CHECK(r.error().code == ErrorCode::no_fitting_release);
      for (const auto& reason : row.passed_reasons) CHECK_THAT(r.error().message, Catch::Contains(reason));
      continue;
    }
    REQUIRE(r);
    REQUIRE(r->chosen);
    CHECK(r->chosen->filename == row.chosen);
    REQUIRE(r->passed_over.size() == row.passed_reasons.size());
    for (std::size_t i = 0; i < row.passed_reasons.size(); ++i) CHECK_THAT(r->passed_over[i].reason, Catch::Contains(row.passed_reasons[i]));
  }
}

TEST_CASE("resolver: the driver's CUDA version when its own version is unknown, the variant asked for, notes", "[release_resolver]") {
  auto f = machine(std::nullopt, "", {k_rtx3090});  // Ampere: no architecture span speaks of it
  f.driver_api_version = 12040;
  auto r = resolve_release(table_catalog(), "9", f);
  REQUIRE(r);
  CHECK(r->chosen->filename == linux_name("9.28.1.4", "12"));  // no support row for 9.28: checked after download
  REQUIRE(r->passed_over.size() == 1);
  CHECK(r->passed_over[0].reason == "needs a driver that runs CUDA 13 (>= 580.65.06); this machine's driver runs CUDA up to 12.4");
  REQUIRE(r->notes.size() == 1);
  CHECK_THAT(r->notes[0], Catch::Contains("no support row for cuDNN 9.28.1 (CUDA 12)") && Catch::Contains("after download"));

  f = machine("13.0", "550.54.15", {});  // cuda-compat: an R550 kernel driver, a libcuda that runs CUDA 13.0
  f.driver_api_version = 13000;
  CHECK(resolve_release(table_catalog(), "latest", f)->chosen->filename == linux_name("9.28.1.4", "13"));
  f.driver_api_version = 12080;
  CHECK_THAT(resolve_release(table_catalog(), "9.28", f).error().message,
             Catch::Contains("needs a driver that runs CUDA 13 (>= 580.65.06); this machine's driver 550.54.15 runs CUDA up to 12.8"));

  f = machine(std::nullopt, "", {});
  f.cuda_variant = "12";
  r = resolve_release(table_catalog(), "latest", f);
  REQUIRE(r);
  CHECK(r->chosen->filename == linux_name("9.28.1.4", "12"));
  REQUIRE(r->passed_over.size() == 1);
  CHECK(r->passed_over[0].reason == "for CUDA 13; CUDA 12 was asked for");

  r = resolve_release(table_catalog(), "9.17", machine("13.0", "", {k_rtx3090}));
  REQUIRE(r);
  CHECK(r->notes.empty());  // the support row answered
  r = resolve_release(table_catalog(), "9.17", machine("12.4", "", {k_rtx3090}));
  REQUIRE(r);
  REQUIRE(r->notes.size() == 1);
  CHECK(r->notes[0] == "the support row of cuDNN 9.17.0 (CUDA 12) stands for its patch release 9.17.1");
}

TEST_CASE("resolver: platforms, requests and the errors that are not about the machine", "[release_resolver]") {
  auto win = machine(std::nullopt, "572.16", {});
  win.platform = "windows-x86_64";
  win.os = Os::windows;
  const auto w = resolve_release(table_catalog(), "latest", win);
  REQUIRE_FALSE(w);  // R572 on Windows is below CUDA 13's floor (580), and the platform has nothing else
  CHECK(w.error().code == ErrorCode::no_fitting_release);
  CHECK_THAT(w.error().message, Catch::Contains("cudnn-windows-x86_64-9.28.1.4_cuda13-archive.zip: needs driver >= 580"));
  win.driver_version = "581.15";
  CHECK((*resolve_release(table_catalog(), "latest", win)).chosen->platform == "windows-x86_64");

  const auto none = resolve_release(table_catalog(), "8", machine(std::nullopt, "", {}));
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::file_not_found);
  CHECK(resolve_release(table_catalog(), "9.1", machine(std::nullopt, "", {})).error().code == ErrorCode::file_not_found);  // not 9.10
  CHECK(resolve_release(table_catalog(), "9.17.0.10", machine(std::nullopt, "", {})));
  CHECK(resolve_release(table_catalog(), "9.x", machine(std::nullopt, "", {})).error().code == ErrorCode::usage);

  CHECK(is_release_request("latest"));
  CHECK(is_release_request("9"));
  CHECK(is_release_request("9.19.0.56"));
  CHECK_FALSE(is_release_request("9.19.0.56.1"));
  CHECK_FALSE(is_release_request("cudnn.tar.xz"));
  CHECK_FALSE(is_release_request(""));
  CHECK_FALSE(is_release_request("Latest"));
}
