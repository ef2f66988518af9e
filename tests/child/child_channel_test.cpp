#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/child/child_channel.hpp"

using namespace cudnnctl;

TEST_CASE("the child channel writes one flushed line a step and reads them back", "[child_channel]") {
  std::ostringstream out;
  ChildChannel channel(out);
  channel.emit("device", {{"name", "NVIDIA H200"}, {"cc_major", 9}});
  channel.emit("done");
  CHECK(out.str() == "{\"cc_major\":9,\"name\":\"NVIDIA H200\",\"step\":\"device\"}\n{\"step\":\"done\"}\n");
  // a crash's half-written last line, garbage and a non-object are skipped
  const auto lines = read_json_lines(out.str() + "not json\n[1,2]\n{\"step\":\"lay");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["name"] == "NVIDIA H200");
  CHECK(lines[1]["step"] == "done");
}

TEST_CASE("a child logs as its parent does: its -v level, and the parent's log file or stderr relayed", "[child_channel]") {
  CHECK(child_log_options().empty());  // no log: the child is run as before
  std::ostringstream err;
  {
    auto session = log::Session::start(log::Level::debug, "", err);
    REQUIRE(session);
    CHECK(child_log_options() == std::vector<std::string>{"-v", "-v", "--log-to-parent"});
  }
  const auto file = (std::filesystem::temp_directory_path() / "cudnnctl-child-log-test.log").string();
  {
    auto session = log::Session::start(log::Level::trace, file, err);
    REQUIRE(session);
    // --log-to-parent as well: a child that cannot append to the file relays its log instead (start_log)
    CHECK(child_log_options() == std::vector<std::string>{"-v", "-v", "-v", "--log-to-parent", "--log-file", file});
  }
  std::filesystem::remove(file);
  CHECK(child_log_options().empty());
}
