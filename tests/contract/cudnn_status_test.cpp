#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../skip.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "cudnnctl/contract/cudnn_status.hpp"

using namespace cudnnctl;

namespace {

std::string status_test_read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The enumerators of `typedef enum { ... } cudnnStatus_t;` in cudnn_graph.h: name -> number, an alias
// (CUDNN_STATUS_ALLOC_FAILED CUDNN_DEPRECATED_ENUM = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED) resolved.
std::map<std::string, int> cudnn_graph_statuses(const std::string& header) {
  const auto end = header.find("} cudnnStatus_t;");
  const auto begin = header.rfind("typedef enum", end);
  REQUIRE(end != std::string::npos);
  REQUIRE(begin != std::string::npos);
  const std::string body = header.substr(begin, end - begin);
  static const std::regex entry(R"((CUDNN_STATUS_[A-Z_]+)(?:\s+CUDNN_DEPRECATED_ENUM)?\s*=\s*(CUDNN_STATUS_[A-Z_]+|[0-9]+))");
  std::map<std::string, int> out;
  for (std::sregex_iterator it(body.begin(), body.end(), entry), stop; it != stop; ++it) {
    const auto value = (*it)[2].str();
    out[(*it)[1].str()] = std::isdigit(static_cast<unsigned char>(value[0])) ? std::stoi(value) : out.at(value);
  }
  return out;
}

} // namespace

TEST_CASE("every cudnnStatus_t of this image's cudnn_graph.h has a row with its cuDNN 9 number", "[status_table]") {
  const std::string header = "/usr/local/cuda/include/cudnn_graph.h";
  if (!std::filesystem::exists(header)) CUDNNCTL_SKIP("no cuDNN 9 headers at /usr/local/cuda/include");
  const auto statuses = cudnn_graph_statuses(status_test_read(header));
  REQUIRE(statuses.size() >= 50);
  for (const auto& [name, number] : statuses) {
    INFO(name);
    const auto row = find_cudnn_status(name);
    REQUIRE(row);
    CHECK(row->v9_code == number);
    CHECK_FALSE(row->meaning.empty());
  }
}

TEST_CASE("every cuDNN 8 status of data/cudnn8-statuses.json has a row with its number", "[status_table]") {
  const auto doc = nlohmann::json::parse(status_test_read(std::string(CUDNNCTL_SOURCE_DIR) + "/data/cudnn8-statuses.json"));
  REQUIRE(doc.at("sources").size() >= 1);
  REQUIRE(doc.at("statuses").size() == 15);
  for (const auto& [name, number] : doc.at("statuses").items()) {
    INFO(name);
    const auto row = find_cudnn_status(name);
    REQUIRE(row);
    CHECK(row->v78_code == number.get<int>());
  }
  CHECK(find_cudnn_status("CUDNN_STATUS_VERSION_MISMATCH")->v8_only);
}

TEST_CASE("every status row names a signature of the table, and says what kind of trouble it is", "[status_table]") {
  for (const auto& row : cudnn_statuses()) {
    INFO(row.name);
    if (row.kind == StatusKind::success) continue;
    REQUIRE_FALSE(row.signature.empty());
    CHECK(signature(row.signature).id == row.signature);  // terminates on an id the table lacks
  }
  CHECK(find_cudnn_status("CUDNN_STATUS_ALLOC_FAILED")->kind == StatusKind::resources);
  CHECK(find_cudnn_status("CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH")->kind == StatusKind::program);
  CHECK(find_cudnn_status("CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED")->kind == StatusKind::setup);
  CHECK(find_cudnn_status("CUDNN_STATUS_ARCH_MISMATCH")->signature == "device.arch.dropped");
}

TEST_CASE("status names are read in every spelling users paste, and only cuDNN's", "[status_table]") {
  auto names = [](std::string_view line) {
    std::vector<std::string> out;
    for (const auto& s : statuses_in(line)) out.emplace_back(s.name);
    return out;
  };
  CHECK(names("Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  CUDNN_STATUS_BAD_PARAM") ==
        std::vector<std::string>{"CUDNN_STATUS_SUCCESS", "CUDNN_STATUS_BAD_PARAM"});
  CHECK(names("CUDNN: STATUS_BAD_PARAM; Reason: dimA[i] <= 0") == std::vector<std::string>{"CUDNN_STATUS_BAD_PARAM"});
  CHECK(names("raise cudnnExceptions[status] libcudnn.cudnnStatusArchMismatch") == std::vector<std::string>{"CUDNN_STATUS_ARCH_MISMATCH"});
  CHECK(names("CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)").empty());
  CHECK(names("cuDNN error: CUBLAS_STATUS_NOT_INITIALIZED").empty());
  CHECK(names("ERROR: CUDNNError: CUDNN_STATUS_NOT_A_STATUS (code 5000)").empty());
  CHECK(cudnn9_status(5000)->name == "CUDNN_STATUS_EXECUTION_FAILED");
  CHECK(cudnn9_status(4003)->name == "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED");
  CHECK(cudnn9_status(3099)->name == "CUDNN_STATUS_NOT_SUPPORTED");
  CHECK_FALSE(cudnn9_status(7));
}
