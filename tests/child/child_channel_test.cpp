#include <catch2/catch.hpp>

#include <sstream>

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
