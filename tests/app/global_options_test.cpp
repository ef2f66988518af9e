#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "cudnnctl/app/global_options.hpp"
#include "cudnnctl/base/log.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

TEST_CASE("start_log: a child appends to the parent's --log-file, or relays when it cannot", "[log][global_options]") {
  const auto dir = fs::temp_directory_path() / ("cudnnctl-global-options-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  GlobalOptions child;
  child.log_to_parent = true;
  child.verbosity = 2;

  SECTION("the file can be opened: the log goes there, stderr stays empty") {
    child.log_file = (dir / "cudnnctl.log").string();
    std::ostringstream err;
    {
      auto session = start_log(child, err);
      REQUIRE(session);
      log::debug("into the file");
    }
    std::ifstream in(dir / "cudnnctl.log");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("into the file"));
    CHECK(err.str().empty());
  }
  SECTION("the file's folder is gone: relay lines on stderr, saying why") {
    child.log_file = (dir / "gone" / "cudnnctl.log").string();
    std::ostringstream err;
    {
      auto session = start_log(child, err);
      REQUIRE(session);
      log::debug("relayed instead");
    }
    CHECK_FALSE(fs::exists(dir / "gone"));
    CHECK_THAT(err.str(), Catch::Matches("cudnnctl-log:info:[0-9:.]+ this child cannot append to the log file: cannot open the log file '[^']*gone/cudnnctl.log' \\(--log-file\\).*\n"
                                         "cudnnctl-log:debug:[0-9:.]+ relayed instead\n"));
  }
  SECTION("not a child: a log file that cannot be opened is still an error") {
    GlobalOptions top;
    top.log_file = (dir / "gone" / "cudnnctl.log").string();
    std::ostringstream err;
    const auto session = start_log(top, err);
    REQUIRE_FALSE(session);
    CHECK(session.error().code == ErrorCode::io);
  }
  fs::remove_all(dir);
}
