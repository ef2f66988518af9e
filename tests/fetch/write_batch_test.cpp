#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "cudnnctl/fetch/write_batch.hpp"

using namespace cudnnctl;

namespace {
struct Write {
  std::uint64_t at;
  std::string bytes;
  bool operator==(const Write&) const = default;
};

struct Recorder {
  std::vector<Write> writes;
  int fail_at = -1;  // the index of the write that fails
  WriteBatch::Writer writer() {
    return [this](std::uint64_t at, const char* p, std::size_t n) -> Result<void> {
      if (static_cast<int>(writes.size()) == fail_at) {
        ++fail_at;  // once
        return fail(ErrorCode::io, "no space left on device", "");
      }
      writes.push_back({at, std::string(p, n)});
      return {};
    };
  }
};
} // namespace

TEST_CASE("small pieces in a row are written in full batches, the rest on flush", "[write_batch]") {
  Recorder r;
  WriteBatch b(8, std::chrono::hours(1), r.writer());
  const std::string data = "abcdefghijklmnopqrst";  // 20 bytes in pieces of 3
  for (std::size_t i = 0; i < data.size(); i += 3) REQUIRE(b.add(100 + i, data.data() + i, std::min<std::size_t>(3, data.size() - i)));
  CHECK(r.writes == std::vector<Write>{{100, "abcdefgh"}, {108, "ijklmnop"}});
  CHECK(b.held() == 4);
  REQUIRE(b.flush());
  CHECK(r.writes.back() == Write{116, "qrst"});
  CHECK(b.held() == 0);
  REQUIRE(b.flush());  // nothing held: nothing written
  CHECK(r.writes.size() == 3);
}

TEST_CASE("a piece that does not follow the held bytes writes them first, and a large piece is cut to the capacity", "[write_batch]") {
  Recorder r;
  WriteBatch b(4, std::chrono::hours(1), r.writer());
  REQUIRE(b.add(0, "ab", 2));
  REQUIRE(b.add(50, "xyz", 3));                     // elsewhere: "ab" goes first
  REQUIRE(b.add(53, "0123456789", 10));             // follows "xyz": fills it to 4, then 4 and 4, then 1 held
  CHECK(b.held() == 1);
  REQUIRE(b.flush());
  CHECK(r.writes == std::vector<Write>{{0, "ab"}, {50, "xyz0"}, {54, "1234"}, {58, "5678"}, {62, "9"}});
}

TEST_CASE("the writer's error comes back from add or flush", "[write_batch]") {
  Recorder r;
  r.fail_at = 0;
  WriteBatch b(4, std::chrono::hours(1), r.writer());
  REQUIRE(b.add(0, "ab", 2));  // held, nothing written yet
  const auto full = b.add(2, "cd", 2);
  REQUIRE_FALSE(full);
  CHECK_THAT(full.error().message, Catch::Contains("no space"));
  CHECK(b.held() == 0);  // the batch that failed is gone, not written twice
  REQUIRE(b.add(4, "ef", 2));
  REQUIRE(b.flush());
  CHECK(r.writes == std::vector<Write>{{4, "ef"}});
  r.fail_at = 1;
  REQUIRE(b.add(6, "g", 1));
  CHECK_FALSE(b.flush());
}

TEST_CASE("held bytes that have waited their time are written on the next piece", "[write_batch]") {
  Recorder r;
  WriteBatch at_once(1024, std::chrono::milliseconds(0), r.writer());
  REQUIRE(at_once.add(0, "ab", 2));  // no waiting allowed: written as they come
  REQUIRE(at_once.add(2, "cd", 2));
  CHECK(r.writes == std::vector<Write>{{0, "ab"}, {2, "cd"}});
  CHECK(at_once.held() == 0);
  Recorder slow;
  WriteBatch b(1024, std::chrono::milliseconds(30), slow.writer());
  REQUIRE(b.add(0, "ab", 2));
  CHECK(slow.writes.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  REQUIRE(b.add(2, "c", 1));  // the first held byte came 40 ms ago
  CHECK(slow.writes == std::vector<Write>{{0, "abc"}});
}
