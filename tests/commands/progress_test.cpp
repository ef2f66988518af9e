#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>
#include <thread>

#include "cudnnctl/commands/progress.hpp"

using namespace cudnnctl;

TEST_CASE("progress text: percentage of the total, bytes, rate and time left", "[progress]") {
  CHECK(human_bytes(512) == "512 B");
  CHECK(human_bytes(1536) == "1.5 KiB");
  CHECK(human_bytes(std::uint64_t{347} << 20) == "347.0 MiB");
  CHECK(human_bytes(std::uint64_t{3} << 29) == "1.50 GiB");
  CHECK(human_duration(7.4) == "7s");
  CHECK(human_duration(65) == "1m05s");
  CHECK(human_duration(7380) == "2h03m");
  const std::uint64_t total = std::uint64_t{400} << 20;
  // 100 MiB of 400 in 2 s: 25%, 50 MiB/s, 300 MiB left = 6 s
  CHECK(progress_text("installing", total / 4, total, 2.0, false) ==
        "installing   25% [#####---------------] 100.0 MiB / 400.0 MiB  50.0 MiB/s  6s left");
  // the floor: 100% only when all is done; more than the total is shown as the total
  CHECK_THAT(progress_text("extracting", total - 1, total, 1.0, false), Catch::StartsWith("extracting   99% "));
  CHECK_THAT(progress_text("extracting", total + 5, total, 1.0, false), Catch::Contains("100% [####################] 400.0 MiB / 400.0 MiB"));
  // no rate before a fifth of a second; an unknown total shows the bytes only
  CHECK(progress_text("downloading", 1024, 0, 0.1, false) == "downloading 1.0 KiB");
  CHECK(progress_final_text("verifying", total, 4.0, false) == "verifying   100% [####################] 400.0 MiB in 4.0s (100.0 MiB/s)");
  // colour: escapes around the bar only, the same text otherwise
  const auto coloured = progress_text("installing", total / 4, total, 2.0, true);
  CHECK_THAT(coloured, Catch::Contains("[\033[32m#####\033[0m-----"));
}

TEST_CASE("progress line: drawn only on a terminal without --json, never backwards, one final line", "[progress]") {
  std::ostringstream out, err;
  {
    Io io{out, err, false, false, false, {}, nullptr};
    ProgressLine p(io, "installing", 100);
    CHECK_FALSE(p.enabled());
    CHECK_FALSE(p.adder());
    p.add(50);
    p.finish();
  }
  {
    Io io{out, err, true, true, false, {}, nullptr};  // --json on a terminal
    ProgressLine p(io, "installing", 100);
    p.add(50);
    p.finish();
  }
  CHECK(err.str().empty());
  Io io{out, err, false, true, false, {}, nullptr};
  {
    ProgressLine p(io, "installing");
    p.set_total(1000);  // the first state is drawn at once
    p.add(100);         // then at most every 100 ms: not drawn
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    p.add(100);         // drawn: 20%
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    p.set(50, 0);       // an older count arriving late is not drawn over a newer one
    p.finish();
  }
  const auto text = err.str();
  CHECK_THAT(text, Catch::StartsWith("\rinstalling    0% "));
  CHECK(text.find(" 10% ") == std::string::npos);
  CHECK(text.find(" 20% ") != std::string::npos);
  CHECK(text.find("  5% ") == std::string::npos);
  CHECK_THAT(text, Catch::EndsWith("\n"));
  CHECK(text.find("100% [####################] 1000 B in ") != std::string::npos);
  CHECK(text.find('\033') == std::string::npos);
  // an error path: the line is erased (spaces, no escapes) and no final line is written
  std::ostringstream err2;
  Io io2{out, err2, false, true, false, {}};
  {
    ProgressLine p(io2, "extracting", 100);
    p.add(40);
  }
  CHECK(err2.str().find("100%") == std::string::npos);
  CHECK_THAT(err2.str(), Catch::EndsWith("\r"));
}
