#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cudnnctl/doctor/explain.hpp"

using namespace cudnnctl;

namespace {
std::string read_file(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string first_id(std::string_view line) {
  const auto m = explain_line(line, 1);
  return m.empty() ? std::string() : std::string(m.front().signature->id);
}
} // namespace

TEST_CASE("explain names the messages users paste, with cause and fix", "[explain]") {
  CHECK(first_id("Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered") ==
        "loader.factory-registered");
  CHECK(signature("loader.factory-registered").harmless);
  CHECK(first_id("Could not load library cudnn_cnn_infer64_8.dll. Error code 126") == "files.complete");
  CHECK(first_id("OSError: /usr/lib/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig") == "loader.sublibrary.elsewhere");
  CHECK(first_id("Invalid handle. Cannot load symbol cudnnCreate") == "loader.load.aborted");
  CHECK(first_id("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH") == "files.versions.mixed");
  CHECK(first_id("Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0.") == "files.search_path");
  CHECK(first_id("LoadLibrary failed with error 126 \"\" when trying to load \"onnxruntime_providers_cuda.dll\"") == "loader.onnxruntime");
  CHECK(first_id("CUDA error: system has unsupported display driver / cuda driver combination") == "driver.compat-shadows");
  CHECK(first_id("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link") == "driver.wsl.copies");
  CHECK(first_id("Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file") ==
        "loader.runtime_deps");
  CHECK(first_id("epoch 3 loss 0.25") == "");
  CHECK(first_id("") == "");
}

TEST_CASE("explain reads what the line says: versions compared, the library or symbol named", "[explain]") {
  auto m = explain_line("Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0.", 7);
  REQUIRE(m.size() == 1);
  CHECK(m[0].line == 7);
  CHECK(m[0].detail.find("9.1.0, older than the 9.8.0") != std::string::npos);
  m = explain_line("OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory", 1);
  REQUIRE(m.size() == 1);
  CHECK(m[0].signature->id == "loader.cuda-majors");
  CHECK(m[0].detail == "the library that cannot be found: libcublasLt.so.12");
  m = explain_line("libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig, version libcudnn_graph.so.9", 1);
  REQUIRE(m.size() == 1);
  CHECK(m[0].detail == "the symbol missing: cudnnGetLibConfig");
  CHECK(!m[0].also.empty());
}

TEST_CASE("explain keeps line numbers across a log and cuts long lines", "[explain]") {
  const auto text = read_file(CUDNNCTL_SOURCE_DIR "/tests/doctor/logs/mixed.log");
  const auto m = explain_text(text);
  std::vector<std::size_t> lines;
  for (const auto& x : m) lines.push_back(x.line);
  CHECK(lines == std::vector<std::size_t>{2, 3, 5, 6, 8, 9, 10, 11});
  const std::string long_line = std::string(100000, 'x') + " CUDNN_STATUS_NOT_INITIALIZED";
  CHECK(explain_text(long_line).empty());  // beyond the 4096 characters read per line
  CHECK(explain_text(std::string(4000, 'x') + " CUDNN_STATUS_NOT_INITIALIZED").at(0).text.size() == 500);
  CHECK(explain_text("a\r\nCUDNN_STATUS_NOT_INITIALIZED\r\n").at(0).line == 2);
}

// Every message the troubleshooting page shows (the backticked parts of each symptom) is recognised by
// explain as that signature or as one of the causes it lists: the table and explain stay in step.
TEST_CASE("explain recognises every message of the signature table as its own signature", "[explain]") {
  const std::set<std::string> not_messages{"torch.backends.cudnn.version()", "Aborted (core dumped)", "cudnnCreate"};
  static const std::regex ticked("`([^`]+)`");
  std::size_t checked = 0;
  for (const auto& s : signatures()) {
    const std::string symptom(s.symptom);
    for (auto it = std::sregex_iterator(symptom.begin(), symptom.end(), ticked); it != std::sregex_iterator(); ++it) {
      const auto message = (*it)[1].str();
      if (not_messages.contains(message)) continue;
      INFO(s.id << ": " << message);
      const auto m = explain_line(message, 1);
      REQUIRE(m.size() == 1);
      std::set<std::string_view> ids{m[0].signature->id};
      for (const auto* a : m[0].also) ids.insert(a->id);
      CHECK(ids.contains(s.id));
      ++checked;
    }
  }
  CHECK(checked >= 30);
}

TEST_CASE("every pattern names signatures of the table", "[explain]") {
  std::set<std::string_view> ids;
  for (const auto& s : signatures()) ids.insert(s.id);
  for (const auto& p : log_patterns())
    for (auto id : p.signatures)
      if (!id.empty()) CHECK(ids.contains(id));
}
