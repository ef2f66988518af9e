#include <catch2/catch.hpp>

#include "cudnnctl/catalog/driver_floors.hpp"

using namespace cudnnctl;

TEST_CASE("driver floors: the built-in table parses and answers per CUDA major, minor and OS", "[driver_floors]") {
  const auto& table = builtin_driver_floors();
  REQUIRE(table.size() >= 6);
  CHECK(driver_floor_for(13, 0, Os::linux_os) == "580.65.06");
  CHECK(driver_floor_for(13, std::nullopt, Os::windows) == "580");
  CHECK(driver_floor_for(12, 8, Os::linux_os) == "525.60.13");  // minor version compatibility: one floor per major
  CHECK(driver_floor_for(12, 4, Os::windows) == "527.41");
  CHECK(driver_floor_for(11, 8, Os::linux_os) == "450.80.02");
  CHECK(driver_floor_for(10, 2, Os::linux_os) == "440.33");      // before CUDA 11: a floor per minor
  CHECK(driver_floor_for(10, 0, Os::windows) == "411.31");
  CHECK_FALSE(driver_floor_for(10, 9, Os::linux_os));
  CHECK_FALSE(driver_floor_for(14, 0, Os::linux_os));
  CHECK_FALSE(driver_floor_for(9, 2, Os::linux_os));

  CHECK(driver_below_floor("570.86.15", 13, 0, Os::linux_os));  // "found version 12080": an R570 driver and CUDA 13
  CHECK_FALSE(driver_below_floor("580.65.06", 13, 0, Os::linux_os));
  CHECK_FALSE(driver_below_floor("590.44.01", 13, 1, Os::linux_os));
  CHECK(driver_below_floor("572.16", 13, std::nullopt, Os::windows));
  CHECK(driver_below_floor("520.61.05", 12, std::nullopt, Os::linux_os));
  CHECK_FALSE(driver_below_floor("", 13, 0, Os::linux_os));       // unknown driver: nothing to say
  CHECK_FALSE(driver_below_floor("garbage", 13, 0, Os::linux_os));
  CHECK_FALSE(driver_below_floor("400.1", 14, 0, Os::linux_os));   // unknown CUDA: nothing to say
}

TEST_CASE("driver floors: a bad table is refused with the row named", "[driver_floors]") {
  CHECK_FALSE(parse_driver_floors("[]", "t"));
  CHECK_FALSE(parse_driver_floors("not json", "t"));
  const auto bad = [](const std::string& row, const std::string& why) {
    INFO(row);
    const auto r = parse_driver_floors(R"({"floors": [)" + row + "]}", "t.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::catalog_invalid);
    CHECK_THAT(r.error().message, Catch::Contains("t.json") && Catch::Contains(why));
  };
  bad(R"({"cuda": "", "linux": "1", "windows": "1"})", "no CUDA version");
  bad(R"({"cuda": "12.x", "linux": "1", "windows": "1"})", "bad CUDA version");
  bad(R"({"cuda": "12", "linux": "525.60.13"})", "dotted Linux and Windows");
  bad(R"({"cuda": "12", "linux": "525..1", "windows": "1"})", "dotted Linux and Windows");
  bad(R"({"cuda": "12", "linux": "1", "windows": "1"}, {"cuda": "12", "linux": "2", "windows": "2"})", "repeats CUDA 12");
  const auto ok = parse_driver_floors(R"({"floors": [{"cuda": "10.2", "linux": "440.33", "windows": "441.22"}]})", "t");
  REQUIRE(ok);
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].cuda_minor == 2u);
  CHECK(driver_floor_for(10, 2, Os::linux_os, *ok) == "440.33");
  CHECK_FALSE(driver_floor_for(10, 1, Os::linux_os, *ok));
}
