#include <catch2/catch.hpp>

#include "cudnnctl/platform/permission_hint.hpp"
#include "cudnnctl/platform/process.hpp"

using namespace cudnnctl;

TEST_CASE("permission hint: 'run as root' only when not root already", "[permission_hint]") {
  const auto hint = platform::permission_hint();
  if (platform::is_privileged()) {
    CHECK(hint.find("run as root") == std::string::npos);
    CHECK_THAT(hint, Catch::Contains("already runs as root") && Catch::Contains("immutable") && Catch::Contains("read-only mount"));
  } else {
    CHECK_THAT(hint, Catch::Contains("run as root (sudo)"));
  }
}
