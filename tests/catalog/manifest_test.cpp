#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "cudnnctl/catalog/manifest.hpp"
#include "cudnnctl/catalog/user_catalog.hpp"

using namespace cudnnctl;

namespace {

const std::string k_url = "https://mirror.test/compute/cudnn/redist/redistrib_9.30.0.json";
const std::string k_sha = std::string(64, 'a');

// A manifest shaped like NVIDIA's (facts of redistrib_9.27.0.json,
// https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.27.0.json) for a release 9.30.0.7.
nlohmann::json good_manifest() {
  return nlohmann::json::parse(R"({
    "release_date": "2026-12-01", "release_label": "9.30.0", "release_product": "cudnn",
    "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn", "version": "9.30.0.7",
      "cuda_variant": ["12", "13"],
      "linux-x86_64": {
        "cuda12": {"relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.30.0.7_cuda12-archive.tar.xz",
                   "sha256": ")" + std::string(64, 'b') + R"(", "md5": "0123456789abcdef0123456789abcdef", "size": "1012666264"},
        "cuda13": {"relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz",
                   "sha256": ")" + k_sha + R"(", "size": "937996620"}},
      "windows-arm64": {
        "cuda13": {"relative_path": "cudnn/windows-arm64/cudnn-windows-arm64-9.30.0.7_cuda13-archive.zip",
                   "sha256": ")" + std::string(64, 'c') + R"(", "size": "468155439"},
        "relative_path": "cudnn/windows-arm64/cudnn-windows-arm64-9.30.0.7_cuda13.4-archive.zip",
        "sha256": ")" + std::string(64, 'd') + R"(", "size": "481633269"}}})");
}

Result<Manifest> parse(const nlohmann::json& j, std::string_view label = "9.30.0") {
  return parse_manifest(j.dump(), k_url, label, {&Catalog::embedded()}, "2026-12-05");
}

std::string refusal(const nlohmann::json& j, std::string_view label = "9.30.0") {
  const auto r = parse(j, label);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::manifest_refused);
  CHECK_THAT(r.error().message, Catch::Contains(k_url));
  return r.error().message;
}

nlohmann::json& x86_13(nlohmann::json& j) { return j["cudnn"]["linux-x86_64"]["cuda13"]; }

} // namespace

TEST_CASE("manifest: NVIDIA's shapes read into rows with their origin and date", "[manifest]") {
  const auto m = parse(good_manifest());
  REQUIRE(m);
  CHECK(m->label == "9.30.0");
  CHECK(m->version == "9.30.0.7");
  CHECK(m->date == "2026-12-01");
  REQUIRE(m->archives.size() == 4);
  for (const auto& a : m->archives) {
    CHECK(a.origin == k_url);
    CHECK(a.added == "2026-12-05");
    CHECK(a.url == "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/" + a.platform + "/" + a.filename);
    CHECK(archive_row_fault(a).empty());
  }
  const auto flat = std::find_if(m->archives.begin(), m->archives.end(), [](const auto& a) { return a.cuda_variant == "13.4"; });
  REQUIRE(flat != m->archives.end());  // the one-off _cuda13.4 entry at the platform's level (9.27.0 windows-arm64)
  CHECK(flat->hashes.front().size == 481633269U);
  // a 4-part label (8.9.5.29's manifest) names the build itself
  auto old = good_manifest();
  old["release_label"] = "9.30.0.7";
  CHECK(parse(old, "9.30.0.7"));
}

TEST_CASE("manifest: each broken rule is refused with what is wrong", "[manifest]") {
  auto j = good_manifest();
  x86_13(j)["relative_path"] = "other/linux-x86_64/cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("not a file directly below cudnn/linux-x86_64/"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/sub/cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("not a file directly below"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/../cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("contains '..'"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/cudnn-linux-x86_64-9.30.0.8_cuda13-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("is cuDNN 9.30.0.8, the release is 9.30.0.7"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/cudnn-windows-x86_64-9.30.0.7_cuda13-archive.zip";
  CHECK_THAT(refusal(j), Catch::Contains("is for windows-x86_64, listed under linux-x86_64"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/cudnn-linux-x86_64-9.30.0.7_cuda12-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("listed as cuda13"));
  j = good_manifest();
  x86_13(j)["relative_path"] = "cudnn/linux-x86_64/cudnn_samples-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
  CHECK_THAT(refusal(j), Catch::Contains("does not parse as a cuDNN archive name"));
  j = good_manifest();
  x86_13(j)["sha256"] = std::string(63, 'a') + "g";
  CHECK_THAT(refusal(j), Catch::Contains("not 64 hex digits"));
  for (const auto* size : {"-5", "0", "12e4", "0123", " 12", "99999999999999999999"}) {
    j = good_manifest();
    x86_13(j)["size"] = size;
    CHECK_THAT(refusal(j), Catch::Contains("not a decimal byte count"));
  }
  j = good_manifest();
  x86_13(j)["size"] = -3;
  CHECK_THAT(refusal(j), Catch::Contains("not a decimal byte count"));
  j = good_manifest();
  x86_13(j)["extra"] = "x";
  CHECK_THAT(refusal(j), Catch::Contains("unknown field 'extra'"));
  j = good_manifest();
  j["cudnn"]["linux-riscv64"] = j["cudnn"]["linux-x86_64"];
  CHECK_THAT(refusal(j), Catch::Contains("unknown platform 'linux-riscv64'"));
  j = good_manifest();
  j["cudnn"]["linux-x86_64"]["cuda14"] = x86_13(j);
  CHECK_THAT(refusal(j), Catch::Contains("unknown CUDA variant 'cuda14'"));
  j = good_manifest();
  j["cudnn"]["cuda_variant"] = {"12"};
  CHECK_THAT(refusal(j), Catch::Contains("not one of the manifest's CUDA variants"));
  j = good_manifest();
  j["cudnn"]["version"] = "9.30.0";
  CHECK_THAT(refusal(j), Catch::Contains("not a 4-part version"));
  j = good_manifest();
  j["cudnn"]["version"] = "9.31.0.7";
  CHECK_THAT(refusal(j), Catch::Contains("is not a build of release 9.30.0"));
  CHECK_THAT(refusal(good_manifest(), "9.29.0"), Catch::Contains("its address names 9.29.0"));
  j = good_manifest();
  j["release_date"] = "yesterday";
  CHECK_THAT(refusal(j), Catch::Contains("release_date"));
  j = good_manifest();
  j["cudnn"]["linux-x86_64"]["cuda12"] = x86_13(j);
  CHECK_THAT(refusal(j), Catch::Contains("listed as cuda12"));
}

TEST_CASE("manifest: size cap, UTF-8, JSON, and contradictions with the catalogs", "[manifest]") {
  const std::string big(k_manifest_max_bytes + 1, ' ');
  auto r = parse_manifest(big, k_url, "9.30.0", {}, "2026-12-05");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("larger than the 1048576 bytes"));
  auto text = good_manifest().dump();
  text.replace(text.find("NVIDIA CUDA"), 6, "NV\xff\xfe\xc0\xaf");
  r = parse_manifest(text, k_url, "9.30.0", {}, "2026-12-05");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("not UTF-8"));
  r = parse_manifest("{\"release_label\": ", k_url, "9.30.0", {}, "2026-12-05");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("not valid JSON"));
  r = parse_manifest(std::string(5000, '[') , k_url, "9.30.0", {}, "2026-12-05");
  REQUIRE_FALSE(r);

  // the built-in catalog's 9.27.0.42 linux-x86_64 cuda13 (NVIDIA's manifest): another hash or size is refused
  const auto* builtin = Catalog::embedded().find_archive("cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz");
  REQUIRE(builtin);
  nlohmann::json j = nlohmann::json::parse(R"({"release_label": "9.27.0", "cudnn": {"version": "9.27.0.42", "linux-x86_64": {"cuda13":
      {"relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz", "sha256": ")" +
                                           builtin->hashes.front().sha256 + R"(", "size": "937996620"}}}})");
  CHECK(parse(j, "9.27.0"));
  x86_13(j)["size"] = "937996621";
  CHECK_THAT(refusal(j, "9.27.0"), Catch::Contains("has 937996620 bytes for the same SHA-256"));
  x86_13(j)["size"] = "937996620";
  x86_13(j)["sha256"] = k_sha;
  CHECK_THAT(refusal(j, "9.27.0"), Catch::Contains("the catalog (built in) has " + builtin->hashes.front().sha256));
}

TEST_CASE("manifest: the labels a listing page links", "[manifest]") {
  const auto labels = manifest_labels(R"(<a href="redistrib_9.10.0.json">redistrib_9.10.0.json</a> <a href="redistrib_8.9.5.29.json">
    <a href="redistrib_9.2.0.json"> redistrib_.json redistrib_9.json redistrib_9.1.0.jso redistrib_1.2.3.4.5.json redistrib_9.x.json)");
  CHECK(labels == std::vector<std::string>{"8.9.5.29", "9.2.0", "9.10.0"});
  CHECK(is_release_label("9.30.0"));
  CHECK_FALSE(is_release_label("9"));
  CHECK_FALSE(is_release_label("9..0"));
  CHECK_FALSE(is_release_label("9.30.0/../x"));
}

TEST_CASE("user catalog: written atomically, read back after the built-in one, contradictions refused", "[manifest]") {
  cudnnctl::testing::TempDir tmp;
  const auto path = (tmp.path() / "cache" / "catalog.json").string();
  auto user = load_user_catalog(path, Catalog::embedded());
  REQUIRE(user);
  CHECK(user->archives().empty());
  const auto m = parse(good_manifest());
  REQUIRE(m);
  REQUIRE(save_user_catalog(path, add_manifest(*user, *m)));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  const auto back = load_user_catalog(path, Catalog::embedded());
  REQUIRE(back);
  REQUIRE(back->archives().size() == 4);
  CHECK(back->archives().front().origin == k_url);
  REQUIRE(back->release("9.30.0"));
  CHECK(back->release("9.30.0")->date == "2026-12-01");
  const auto both = builtin_then_user(path);
  REQUIRE(both);
  CHECK(both->find_archive("cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz"));
  CHECK(both->find_archive("cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz")->origin.empty());
  CHECK(both->archives().size() == Catalog::embedded().archives().size() + 4);

  // a row edited into a contradiction with the built-in catalog, or moved off NVIDIA's path, is refused
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  auto doc = nlohmann::json::parse(text.str());
  doc["archives"][0]["url"] = "https://evil.test/x.tar.xz";
  std::ofstream(path) << doc.dump();
  auto bad = load_user_catalog(path, Catalog::embedded());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::catalog_invalid);
  CHECK_THAT(bad.error().hint, Catch::Contains("catalog update"));
  doc = nlohmann::json::parse(text.str());
  doc["archives"][0]["filename"] = "cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz";
  doc["archives"][0]["version"] = "9.27.0.42";
  doc["archives"][0]["cuda_variant"] = "13";
  doc["archives"][0]["url"] = nvidia_archive_url("cudnn/linux-x86_64/cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz");
  std::ofstream(path) << doc.dump();
  bad = load_user_catalog(path, Catalog::embedded());
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("contradiction"));
}
