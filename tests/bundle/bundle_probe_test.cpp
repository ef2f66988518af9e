#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../archive/test_archives.hpp"
#include "../skip.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/bundle/bundle_probe.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

namespace {
ChildSteps steps_of(const std::string& lines) {
  ChildSteps c;
  c.steps = read_json_lines(lines);
  return c;
}
} // namespace

TEST_CASE("the bundle load child speaks the child channel: steps on stdout, exit 0 whatever it found", "[bundle_probe]") {
  TempDir tmp;
  std::ostringstream empty;
  CHECK(bundle_load_child(tmp.path().string(), empty) == 0);
  CHECK(empty.str() == "{\"message\":\"no cuDNN library in " + tmp.path().string() + "\",\"step\":\"error\"}\n{\"step\":\"done\"}\n");
  const auto none = read_bundle_load_steps(tmp.path().string(), steps_of(empty.str()));
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::bundle_refused);
  CHECK_THAT(none.error().message, Catch::Contains("no cuDNN library in"));

  // a file with cuDNN's name that is no library: one failed "load" step, no version
  std::ofstream(tmp.path() / "libcudnn.so.9") << "not a library";
  std::ostringstream bad;
  CHECK(bundle_load_child(tmp.path().string(), bad) == 0);
  const auto lines = read_json_lines(bad.str());
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["step"] == "load");
  CHECK(lines[0]["file"] == "libcudnn.so.9");
  CHECK(lines[0]["loaded"] == false);
  CHECK(lines[1]["step"] == "done");
  CHECK_THAT(read_bundle_load_steps("/b", steps_of(bad.str())).error().message, Catch::StartsWith("the cuDNN in /b does not load: libcudnn.so.9: "));
}

TEST_CASE("the parent reads the bundle load child's steps: a version, or why not", "[bundle_probe]") {
  const auto ok = read_bundle_load_steps("/b", steps_of("{\"step\":\"load\",\"file\":\"libcudnn.so.9\",\"loaded\":true,\"error\":\"\"}\n"
                                                         "{\"step\":\"version\",\"version\":91002}\n{\"step\":\"done\"}\n"));
  REQUIRE(ok);
  CHECK(*ok == 91002u);
  // the first library that failed, not a later one
  const auto sub = read_bundle_load_steps("/b", steps_of("{\"step\":\"load\",\"file\":\"libcudnn_graph.so.9\",\"loaded\":false,\"error\":\"libz.so.1: cannot open\"}\n"
                                                          "{\"step\":\"load\",\"file\":\"libcudnn_ops.so.9\",\"loaded\":false,\"error\":\"other\"}\n{\"step\":\"done\"}\n"));
  CHECK(sub.error().message == "the cuDNN in /b does not load: libcudnn_graph.so.9: libz.so.1: cannot open");
  // a crash before "done": the signal, not the steps it managed
  auto crashed = steps_of("{\"step\":\"load\",\"file\":\"libcudnn.so.9\",\"loaded\":true,\"error\":\"\"}\n");
  crashed.signal = 11;
  CHECK_THAT(read_bundle_load_steps("/b", crashed).error().message, Catch::EndsWith("killed by signal 11"));
  auto hung = steps_of("");
  hung.timed_out = true;
  CHECK_THAT(read_bundle_load_steps("/b", hung).error().message, Catch::EndsWith("timed out"));
  auto stopped = steps_of("");
  stopped.err = "something went wrong\n";
  CHECK_THAT(read_bundle_load_steps("/b", stopped).error().message, Catch::EndsWith("does not load: something went wrong"));
  CHECK_THAT(read_bundle_load_steps("/b", steps_of("{\"step\":\"done\"}\n")).error().message, Catch::EndsWith("returned no version"));
}

#ifdef CUDNNCTL_FAKES_DIR
TEST_CASE("cudnnctl __bundle_load proves a copy loads through the child channel, its log relayed at -vv", "[bundle_probe]") {
  const fs::path fakes = CUDNNCTL_FAKES_DIR;
  if (!fs::exists(fakes / "libcudnn.so.9")) CUDNNCTL_SKIP("the fake cuDNN libraries are not built");
  TempDir tmp;
  for (const auto& e : fs::directory_iterator(fakes)) {
    const auto name = e.path().filename().string();
    if (name == "libcudnn.so.9" || (name.starts_with("libcudnn_") && name.ends_with(".so.9") && name.find("needs") == std::string::npos))
      fs::copy_file(e.path(), tmp.path() / name);
  }
  std::ostringstream log_out;
  {
    auto session = log::Session::start(log::Level::debug, "", log_out);
    REQUIRE(session);
    const auto v = probe_bundle_load(CUDNNCTL_BINARY, tmp.path().string());
    REQUIRE(v);
    CHECK(*v == 90100u);  // the fake's cudnnGetVersion()
  }
  // the child's own debug lines, relayed into this process's log under the child's name
  CHECK_THAT(log_out.str(), Catch::Contains("bundle_load child [") && Catch::Contains("]: bundle load child: libcudnn.so.9 loaded"));

  fs::remove(tmp.path() / "libcudnn.so.9");
  std::ofstream(tmp.path() / "libcudnn.so.9") << "not a library";
  const auto bad = probe_bundle_load(CUDNNCTL_BINARY, tmp.path().string());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::bundle_refused);
  CHECK_THAT(bad.error().message, Catch::Contains("does not load: libcudnn.so.9: "));
}
#endif
