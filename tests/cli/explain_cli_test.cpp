#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_cli.hpp"

using cudnnctl::testing::run;

namespace {
const std::string k_log = CUDNNCTL_SOURCE_DIR "/tests/doctor/logs/mixed.log";

std::string temp_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}
} // namespace

TEST_CASE("explain names each message of a log with cause and fix and exits 10 when one needs a fix", "[explain_cli]") {
  const auto r = run({"explain", k_log});
  CHECK(r.code == 10);
  CHECK(r.out.find("lines 2, 3: E external/local_xla") != std::string::npos);
  CHECK(r.out.find("  harmless: TensorFlow/XLA registers the cuDNN factory twice (loader.factory-registered)") != std::string::npos);
  // an undefined cudnn* symbol in a sub-library (line 8) and CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (line 10): two releases mixed
  CHECK(r.out.find("lines 8, 10: OSError: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol") != std::string::npos);
  CHECK(r.out.find("  problem: Mixed cuDNN versions in one folder (files.versions.mixed)") != std::string::npos);
  CHECK(r.out.find("  says: the cuDNN loaded is 9.1.0, older than the 9.8.0") != std::string::npos);
  CHECK(r.out.find("8 messages named: 2 harmless, 6 to fix") != std::string::npos);
}

TEST_CASE("explain --json lists every match with its line number", "[explain_cli]") {
  const auto r = run({"explain", k_log, "--json"});
  CHECK(r.code == 10);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["schema"] == "cudnnctl.explain/1");
  REQUIRE(doc["matches"].size() == 8);
  CHECK(doc["matches"][0]["line"] == 2);
  CHECK(doc["matches"][0]["harmless"] == true);
  CHECK(doc["matches"][7]["line"] == 11);
  CHECK(doc["matches"][7]["signature"] == "loader.onnxruntime");
  CHECK(doc["harmless"] == 2);
  CHECK(doc["actionable"] == 6);
}

TEST_CASE("explain exits 0 on harmless noise alone and on a log with nothing it knows", "[explain_cli]") {
  const auto noise = temp_file("cudnnctl-explain-noise.log",
                               "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered\n");
  auto r = run({"explain", noise});
  CHECK(r.code == 0);
  CHECK(r.out.find("1 message named: 1 harmless, 0 to fix") != std::string::npos);
  const auto clean = temp_file("cudnnctl-explain-clean.log", "epoch 1 loss 0.3\nepoch 2 loss 0.2\n");
  r = run({"explain", clean});
  CHECK(r.code == 0);
  CHECK(r.out.find("no cuDNN or CUDA loading message found") != std::string::npos);
}

TEST_CASE("explain reads only regular files or standard input", "[explain_cli]") {
  auto r = run({"explain", std::filesystem::temp_directory_path().string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("is a folder, not a regular file") != std::string::npos);
  r = run({"explain", "/nonexistent/cudnnctl.log", "--json"});
  CHECK(r.code == 8);
  CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "io.not-found");
}
