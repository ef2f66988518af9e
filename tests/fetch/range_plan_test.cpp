#include <catch2/catch.hpp>

#include "cudnnctl/fetch/range_plan.hpp"

using namespace cudnnctl;

TEST_CASE("range plan: extents merge, the prefix grows only without a gap", "[range_plan]") {
  ExtentSet s;
  CHECK(s.prefix() == 0);
  s.add(10, 20);
  CHECK(s.prefix() == 0);
  CHECK(s.first_gap(0) == 0);
  CHECK(s.first_gap(12) == 20);
  s.add(30, 40);
  s.add(20, 30);  // touches both: one extent
  CHECK(s.extents().size() == 1);
  CHECK(s.extents().begin()->first == 10);
  CHECK(s.extents().begin()->second == 40);
  s.add(0, 5);
  CHECK(s.prefix() == 5);
  s.add(3, 12);  // overlaps both sides
  CHECK(s.prefix() == 40);
  CHECK(s.bytes() == 40);
  CHECK(s.covers(0, 40));
  CHECK_FALSE(s.covers(0, 41));
  s.add(50, 50);  // empty: nothing
  CHECK(s.extents().size() == 1);
  s.add(60, 70);
  CHECK(s.bytes() == 50);
  CHECK_FALSE(s.covers(39, 61));
}

TEST_CASE("range plan: chunks at multiples of the chunk size, less what is present", "[range_plan]") {
  ExtentSet none;
  const auto all = plan_ranges(25, 10, none);
  REQUIRE(all.size() == 3);
  CHECK(all[0] == ByteRange{0, 9});
  CHECK(all[1] == ByteRange{10, 19});
  CHECK(all[2] == ByteRange{20, 24});
  CHECK(all[2].size() == 5);

  ExtentSet some;
  some.add(0, 10);   // chunk 0 whole
  some.add(12, 15);  // part of chunk 1
  some.add(20, 25);  // chunk 2 whole
  const auto rest = plan_ranges(25, 10, some);
  REQUIRE(rest.size() == 2);
  CHECK(rest[0] == ByteRange{10, 11});
  CHECK(rest[1] == ByteRange{15, 19});
  CHECK(plan_ranges(0, 10, none).empty());
  CHECK(plan_ranges(25, 0, none).size() == 1);  // no chunk size: one range
}

TEST_CASE("range plan: connections adapt to the chunks and honour --connections", "[range_plan]") {
  CHECK(choose_connections(0, 44) == 8);
  CHECK(choose_connections(0, 3) == 3);
  CHECK(choose_connections(0, 0) == 1);
  CHECK(choose_connections(16, 44) == 16);
  CHECK(choose_connections(16, 5) == 5);
  CHECK(choose_connections(100, 1000) == 32);
  CHECK(choose_connections(1, 44) == 1);
}

TEST_CASE("range plan: the tail first (a zip's central directory), the rest in file order", "[range_plan]") {
  auto plan = plan_ranges(10000, 4096, ExtentSet{});
  put_tail_first(plan);
  REQUIRE(plan.size() == 3);
  CHECK(plan[0] == ByteRange{8192, 9999});
  CHECK(plan[1] == ByteRange{0, 4095});
  CHECK(plan[2] == ByteRange{4096, 8191});
  std::vector<ByteRange> one{{0, 10}};
  put_tail_first(one);
  CHECK(one == std::vector<ByteRange>{{0, 10}});
}

TEST_CASE("range plan: the last ranges are cut into pieces, the first (a zip's tail) never", "[range_plan]") {
  auto plan = plan_ranges(10 * 4096, 4096, ExtentSet{});  // 10 chunks
  put_tail_first(plan);
  taper_tail(plan, 2, 1024);
  // 8 whole chunks (the tail first), then the last 2 of the queue in 4 pieces each
  REQUIRE(plan.size() == 8 + 8);
  CHECK(plan[0] == ByteRange{9 * 4096, 10 * 4096 - 1});
  CHECK(plan[7] == ByteRange{6 * 4096, 7 * 4096 - 1});
  CHECK(plan[8] == ByteRange{7 * 4096, 7 * 4096 + 1023});
  CHECK(plan[15] == ByteRange{9 * 4096 - 1024, 9 * 4096 - 1});
  std::uint64_t covered = 0;
  for (const auto& r : plan) covered += r.size();
  CHECK(covered == 10 * 4096);  // nothing lost or asked twice
  for (std::size_t i = 9; i < plan.size(); ++i) CHECK(plan[i].first == plan[i - 1].last + 1);

  auto small = plan_ranges(3000, 4096, ExtentSet{});  // one range: kept whole
  taper_tail(small, 8, 1024);
  CHECK(small == std::vector<ByteRange>{{0, 2999}});
  auto pieces = plan_ranges(3 * 4096 + 100, 4096, ExtentSet{});  // 4 ranges, the last 100 bytes: never below min_piece
  taper_tail(pieces, 8, 1024);
  CHECK(pieces.front() == ByteRange{0, 4095});
  CHECK(pieces.back() == ByteRange{3 * 4096, 3 * 4096 + 99});
  CHECK(pieces.size() == 1 + 4 + 4 + 1);
}
