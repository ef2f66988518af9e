#include <catch2/catch.hpp>

#include <zlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cudnnctl/archive/inflater.hpp"

using namespace cudnnctl;

namespace {

// Raw deflate (what a zip's method 8 member holds) of `data`, by zlib at `level`.
std::string raw_deflate(const std::string& data, int level) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// Mixed content: text-like runs (long matches), pseudo-random bytes (literals, stored blocks at level 0).
std::string sample(std::size_t n) {
  std::string s;
  std::uint64_t x = 88172645463325252ull;
  while (s.size() < n) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    if (x % 3 == 0) s += "cudnn_engines_precompiled64_9.dll ";
    else s.push_back(static_cast<char>(x >> 24));
  }
  s.resize(n);
  return s;
}

struct Outcome {
  std::string bytes;
  bool end = false;
  std::uint32_t crc = 0;
  std::string error;
};

// Feeds `in` `in_chunk` bytes at a time into `out_chunk`-byte output steps, as MemberReader does.
Outcome inflate_all(InflaterKind kind, const std::string& in, std::size_t in_chunk, std::size_t out_chunk) {
  auto inf = Inflater::create(kind);
  Outcome o;
  std::vector<char> out(out_chunk);
  std::size_t pos = 0, avail = 0;
  for (int guard = 0; guard < 10'000'000; ++guard) {
    if (avail == 0 && pos + avail < in.size()) avail = std::min(in_chunk, in.size() - pos);
    auto s = inf->step(in.data() + pos, avail, out.data(), out.size());
    if (!s) {
      o.error = s.error().message;
      CHECK(s.error().code == ErrorCode::archive_corrupt);
      return o;
    }
    pos += s->consumed, avail -= s->consumed;
    o.bytes.append(out.data(), s->produced);
    if (s->end) {
      o.end = true;
      break;
    }
    if (s->consumed == 0 && s->produced == 0 && pos == in.size()) break;  // cut short
  }
  o.crc = inf->crc32();
  return o;
}

} // namespace

TEST_CASE("every inflater gives the same bytes and the same CRC-32 as zlib, whatever the step sizes", "[inflater]") {
  const auto engines = available_inflaters();
  REQUIRE_FALSE(engines.empty());
  CHECK(engines.back() == InflaterKind::zlib);
  for (const auto engine : engines) CHECK(Inflater::create(engine)->kind() == engine);
  CHECK(Inflater::create(InflaterKind::best)->kind() == engines.front());

  for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{70'000}, std::size_t{3} << 20}) {
    const auto data = sample(size);
    const auto expected_crc = static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    for (const int level : {0, 1, 6, 9}) {
      const auto packed = raw_deflate(data, level);
      for (const auto engine : engines)
        for (const auto& [in_chunk, out_chunk] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {1 << 20, 1 << 20}, {256 << 10, 256 << 10}, {4096, 1000}, {7, 65536}}) {
          if (size > 100'000 && in_chunk < 4096) continue;  // one byte at a time is for the small ones
          INFO(to_string(engine) << ": " << size << " bytes, level " << level << ", steps " << in_chunk << "/" << out_chunk);
          const auto got = inflate_all(engine, packed, in_chunk, out_chunk);
          CHECK(got.error.empty());
          CHECK(got.end);
          CHECK(got.bytes.size() == data.size());
          CHECK(got.bytes == data);
          CHECK(got.crc == expected_crc);
        }
    }
  }
}

TEST_CASE("every inflater refuses damaged deflate data and never reports a cut stream as complete", "[inflater]") {
  const auto data = sample(1 << 20);
  const auto packed = raw_deflate(data, 6);
  for (const auto engine : available_inflaters()) {
    INFO(to_string(engine));
    // an invalid block type (binary 11) in the first header
    std::string garbage = packed;
    garbage[0] = static_cast<char>(0xFF);
    const auto bad = inflate_all(engine, garbage, 256 << 10, 256 << 10);
    CHECK_FALSE(bad.error.empty());
    CHECK_FALSE(bad.end);
    // cut in half: no error from the engine, but no end either, and fewer bytes than the original
    const auto cut = inflate_all(engine, packed.substr(0, packed.size() / 2), 256 << 10, 256 << 10);
    CHECK_FALSE(cut.end);
    CHECK(cut.bytes.size() < data.size());
    // one flipped bit in the middle: an error, or the wrong bytes and a CRC that gives it away
    std::string flipped = packed;
    flipped[flipped.size() / 2] ^= 0x10;
    const auto f = inflate_all(engine, flipped, 256 << 10, 256 << 10);
    const auto good_crc = static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    CHECK((!f.error.empty() || !f.end || f.crc != good_crc || f.bytes != data));
    CHECK_FALSE((f.error.empty() && f.end && f.bytes != data && f.crc == good_crc));
  }
}
