#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudnnctl/base/log.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

TEST_CASE("log: -v counts map to info, debug, trace", "[log]") {
  CHECK(log::level_for_verbosity(0) == log::Level::off);
  CHECK(log::level_for_verbosity(1) == log::Level::info);
  CHECK(log::level_for_verbosity(2) == log::Level::debug);
  CHECK(log::level_for_verbosity(3) == log::Level::trace);
  CHECK(log::level_for_verbosity(7) == log::Level::trace);
}

TEST_CASE("log: a session writes its level and above, and nothing once it ends", "[log]") {
  std::ostringstream err;
  log::info("before any session");
  CHECK_FALSE(log::enabled(log::Level::info));
  {
    auto session = log::Session::start(log::Level::debug, "", err);
    REQUIRE(session);
    CHECK(log::enabled(log::Level::debug));
    CHECK_FALSE(log::enabled(log::Level::trace));
    log::info("decided {}", 42);
    log::debug("opened {}", "a file");
    log::trace("per-member detail");
    {
      log::Phase phase("extract");
    }
  }
  log::info("after the session");
  CHECK_FALSE(log::enabled(log::Level::info));
  const auto text = err.str();
  CHECK_THAT(text, Catch::Contains("[info] decided 42") && Catch::Contains("[debug] opened a file"));
  CHECK_THAT(text, Catch::Contains("[debug] phase extract: start") && Catch::Matches("(.|\n)*\\[info\\] phase extract: [0-9.]+ ms\n"));
  CHECK_THAT(text, !Catch::Contains("per-member") && !Catch::Contains("before any") && !Catch::Contains("after the session"));
}

TEST_CASE("log: a session with a file appends there and leaves the stream alone", "[log]") {
  const auto dir = fs::temp_directory_path() / "cudnnctl-log-test";
  fs::create_directories(dir);
  const auto file = (dir / "run.log").string();
  std::ofstream(file) << "an earlier line\n";
  std::ostringstream err;
  {
    auto session = log::Session::start(log::Level::trace, file, err);
    REQUIRE(session);
    log::trace("traced");
  }
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  CHECK_THAT(text.str(), Catch::StartsWith("an earlier line\n") && Catch::Contains("[pid ") && Catch::Contains("[trace] traced"));
  CHECK(err.str().empty());
  fs::remove_all(dir);
}

TEST_CASE("log: a log file that cannot be opened is an I/O error, and no folder is created", "[log]") {
  std::ostringstream err;
  const auto missing = fs::temp_directory_path() / "cudnnctl-log-test-missing";
  fs::remove_all(missing);
  auto session = log::Session::start(log::Level::info, (missing / "x.log").string(), err);
  REQUIRE_FALSE(session);
  CHECK(session.error().code == ErrorCode::io);
  CHECK_THAT(session.error().message, Catch::Contains("--log-file") && Catch::Contains("x.log"));
  CHECK_FALSE(session.error().hint.empty());
  CHECK_FALSE(fs::exists(missing));
  CHECK_FALSE(log::enabled(log::Level::info));
}

TEST_CASE("log: command lines quote what has spaces", "[log]") {
  CHECK(log::command_line({"ldconfig", "-p"}) == "ldconfig -p");
  CHECK(log::command_line({"/opt/my tools/x", "", "a"}) == "'/opt/my tools/x' '' a");
}

TEST_CASE("log: a child's relay lines go into this log at their level, the rest of its stderr stays", "[log]") {
  // the child's side: relay lines on its stderr, its level and time first
  std::ostringstream child_err;
  {
    auto session = log::Session::start_for_parent(log::Level::debug, child_err);
    REQUIRE(session);
    CHECK(log::current_level() == log::Level::debug);
    CHECK(log::current_file().empty());
    log::info("chose {}", "graph");
    log::debug("loaded libcudnn.so.9");
    log::trace("not at this level");
  }
  CHECK(log::current_level() == log::Level::off);
  CHECK_THAT(child_err.str(), Catch::Matches("cudnnctl-log:info:[0-9:.]+ chose graph\ncudnnctl-log:debug:[0-9:.]+ loaded libcudnn.so.9\n"));

  // the parent's side, at info: the debug line is dropped, what is not a relay line stays as it was
  const auto stderr_text = "a crash message\n" + child_err.str() + "cudnnctl-log:bogus:1 not a level\nlast words";
  std::ostringstream parent_err;
  std::string rest;
  {
    auto session = log::Session::start(log::Level::info, "", parent_err);
    REQUIRE(session);
    rest = log::relay_child_log(stderr_text, "probe child");
  }
  CHECK(rest == "a crash message\ncudnnctl-log:bogus:1 not a level\nlast words");
  CHECK_THAT(parent_err.str(), Catch::Matches("\\[[0-9:.]+\\] \\[info\\] probe child \\[[0-9:.]+\\]: chose graph\n"));
  // with no session nothing is written, and the relay lines still leave the stderr text
  CHECK(log::relay_child_log(stderr_text, "probe child") == rest);
}

TEST_CASE("log: a child's message of several lines reaches the parent as that many relay lines", "[log]") {
  std::ostringstream child_err;
  {
    auto session = log::Session::start_for_parent(log::Level::debug, child_err);
    REQUIRE(session);
    log::info("cuDNN said:\nCUDNN_STATUS_NOT_INITIALIZED\n  at cudnnCreate");
  }
  CHECK_THAT(child_err.str(), Catch::Matches("cudnnctl-log:info:[0-9:.]+ cuDNN said:\n"
                                             "cudnnctl-log:info:[0-9:.]+ CUDNN_STATUS_NOT_INITIALIZED\n"
                                             "cudnnctl-log:info:[0-9:.]+   at cudnnCreate\n"));
  std::ostringstream parent_err;
  std::string rest;
  {
    auto session = log::Session::start(log::Level::info, "", parent_err);
    REQUIRE(session);
    rest = log::relay_child_log(child_err.str(), "probe child");
  }
  CHECK(rest.empty());
  CHECK_THAT(parent_err.str(), Catch::Contains("probe child [") && Catch::Contains("]: CUDNN_STATUS_NOT_INITIALIZED\n") &&
                                   Catch::Contains("]:   at cudnnCreate\n"));
  // a session that is not a child's keeps a message of several lines whole
  std::ostringstream plain;
  {
    auto session = log::Session::start(log::Level::info, "", plain);
    REQUIRE(session);
    log::info("one\ntwo");
  }
  CHECK_THAT(plain.str(), Catch::Matches("\\[[0-9:.]+\\] \\[info\\] one\ntwo\n"));
}
