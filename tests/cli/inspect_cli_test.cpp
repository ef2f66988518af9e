#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "run_cli.hpp"

using namespace cudnnctl;
using cudnnctl::testing::run;

TEST_CASE("inspect --json gives the seed's contract", "[cli][inspect]") {
  const auto r = run({"inspect", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == true);
  CHECK(j["version"] == "9.1.0.70");
  CHECK(j["cudnn_version_macro"] == 90100);
  CHECK(j["cuda_variant"] == "12");
  CHECK(j["platform"] == "windows-x86_64");
  CHECK(j["known_hashes"][0]["sha256"] == "3083b5bf20b0b2b29305de088e0b2cdbb78b5190655a27e8a7c596e47042eedf");
  CHECK(j["known_hashes"][0]["size"] == 669629858);
  CHECK(j["support"][0]["cuda_min"] == "12.0");
  CHECK(j["support"][0]["cuda_max"] == "12.4");
  CHECK(j["layout"]["library_dir"] == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin");
  CHECK(j["in_catalog"] == true);
  CHECK(r.err.empty());
}

TEST_CASE("inspect prints a readable table", "[cli][inspect]") {
  const auto r = run({"inspect", "cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("8907") && Catch::Contains("libcudnn_cnn_infer.so.8") &&
                        Catch::Contains("known SHA-256") && Catch::Contains("supported CUDA"));
}

TEST_CASE("inspect warns about the hyphenated spelling and still answers", "[cli][inspect]") {
  const auto r = run({"inspect", "cudnn-windows-x86-64-9.1.0.70-cuda12-archive.zip", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["canonical_name"] == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  REQUIRE(j["warnings"].size() == 1);
  const auto human = run({"inspect", "cudnn-windows-x86-64-9.1.0.70-cuda12-archive.zip"});
  CHECK_THAT(human.err, Catch::Contains("warning:") && Catch::Contains("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"));
}

TEST_CASE("inspect says plainly what the catalog does not know", "[cli][inspect]") {
  const auto r = run({"inspect", "cudnn-linux-x86_64-9.99.0.1_cuda13-archive.tar.xz"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("not in the catalog"));
  const auto j = nlohmann::json::parse(run({"inspect", "cudnn-linux-x86_64-9.99.0.1_cuda13-archive.tar.xz", "--json"}).out);
  CHECK(j["in_catalog"] == false);
  CHECK(j["known_hashes"].empty());
  CHECK(j["support"].empty());
}

TEST_CASE("inspect errors have documented exit codes, in text and JSON", "[cli][inspect]") {
  const auto sibling = run({"inspect", "cudnn_samples-source-9.1.0.70-archive.tar.xz"});
  CHECK(sibling.code == 3);
  CHECK_THAT(sibling.err, Catch::Contains("error:") && Catch::Contains("samples") && Catch::Contains("hint:"));
  CHECK(sibling.out.empty());

  const auto bad = run({"inspect", "nvidia.zip", "--json"});
  CHECK(bad.code == 3);
  const auto j = nlohmann::json::parse(bad.out);
  CHECK(j["ok"] == false);
  CHECK(j["error"]["code"] == "name.not-cudnn");
  CHECK(j["error"]["exit_code"] == 3);

  CHECK(run({"inspect"}).code == 2);
  CHECK(run({"inspect", "--bogus", "x.zip"}).code == 2);
  CHECK(run({}).code == 2);
  CHECK(run({"no-such-command"}).code == 2);
}

TEST_CASE("a --catalog file replaces the built-in catalog", "[cli][inspect]") {
  const auto missing = run({"inspect", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "--catalog", "/nonexistent.json"});
  CHECK(missing.code == 9);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent.json"));
  const auto own = std::string(CUDNNCTL_SOURCE_DIR) + "/tests/catalog/small-catalog.json";
  const auto r = run({"inspect", "cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz", "--catalog", own, "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["in_catalog"] == true);
  CHECK(j["known_hashes"][0]["sha256"] == std::string(64, 'c'));
  CHECK(j["support"][0]["cuda_max"] == "13.2");
}

TEST_CASE("the --version text names the catalog's newest release and the build platform", "[cli]") {
  const auto r = run({"--version"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("cudnnctl ") && Catch::Contains("9.27.0") && Catch::Contains("2026-09-29"));
}

TEST_CASE("the --help text lists the commands", "[cli]") {
  const auto r = run({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("inspect"));
}

TEST_CASE("inspect names the release a short legacy name stands for", "[cli][inspect]") {
  const auto r = run({"inspect", "cudnn-9.0-windows10-x64-v7.zip"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("release        7.0.4 (the name gives only '7')"));
  const auto j = nlohmann::json::parse(run({"inspect", "cudnn-9.0-windows10-x64-v7.zip", "--json"}).out);
  CHECK(j["release_pin"]["release"] == "7.0.4");
  CHECK(j["release_pin"]["exact"] == true);
  CHECK(nlohmann::json::parse(run({"inspect", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "--json"}).out)["release_pin"].is_null());
}

TEST_CASE("inspect shows an archive's size from NVIDIA's manifest, or why the catalog has none", "[cli][inspect][download_bounds]") {
  const auto sized = nlohmann::json::parse(run({"inspect", "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz", "--json"}).out);
  CHECK(sized["known_hashes"][0]["size"] == 668344912);  // redistrib_9.19.0.json
  CHECK(sized["known_hashes"][0]["size_note"].is_null());
  const auto text = run({"inspect", "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"});
  CHECK_THAT(text.out, Catch::Contains("668344912 bytes (637.38 MiB)"));
  CHECK_THAT(text.out, !Catch::Contains("size unknown"));

  const auto old = run({"inspect", "cudnn-11.1-linux-x64-v8.0.5.39.tgz"});
  CHECK_THAT(old.out, Catch::Contains("size unknown") && Catch::Contains("predates NVIDIA's redistrib_*.json manifests"));
  const auto recent = nlohmann::json::parse(run({"inspect", "cudnn-linux-x86_64-9.21.0.82_cuda13-archive.tar.xz", "--json"}).out);
  CHECK(recent["known_hashes"][0]["size"].is_null());
  CHECK_THAT(recent["known_hashes"][0]["size_note"].get<std::string>(), Catch::Contains("no copy of NVIDIA's redistrib_9.21.0.json"));
}
