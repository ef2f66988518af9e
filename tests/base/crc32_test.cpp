#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <libdeflate.h>
#include <zlib.h>

#include "cudnnctl/base/crc32.hpp"
#include "../archive/test_archives.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("CRC-32 gives the check values of the zip/gzip CRC", "[crc32]") {
  const std::string nine = "123456789";
  CHECK(crc32_update(0, nine.data(), nine.size()) == 0xCBF43926u);  // the catalogue check value of CRC-32/ISO-HDLC
  CHECK(crc32_update(0, "", 0) == 0u);
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  CHECK(crc32_update(0, fox.data(), fox.size()) == 0x414FA339u);
}

TEST_CASE("CRC-32 agrees with zlib's and libdeflate's at every length, alignment and split", "[crc32]") {
  std::mt19937 rng(42);
  std::vector<unsigned char> buf(4096 + 64);
  for (auto& b : buf) b = static_cast<unsigned char>(rng());
  for (std::size_t offset : {0u, 1u, 3u, 7u, 13u})
    for (std::size_t n = 0; n <= 300; ++n) {
      const unsigned char* p = buf.data() + offset;
      const auto ours = crc32_update(0, p, n);
      INFO("offset " << offset << ", " << n << " bytes");
      REQUIRE(ours == static_cast<std::uint32_t>(::crc32(0, p, static_cast<uInt>(n))));
      REQUIRE(ours == libdeflate_crc32(0, p, n));
      // continued over two pieces, split anywhere, it is the CRC of the whole
      const std::size_t split = n / 3;
      REQUIRE(crc32_update(crc32_update(0, p, split), p + split, n - split) == ours);
    }
  CHECK(crc32_update(0, buf.data(), buf.size()) == libdeflate_crc32(0, buf.data(), buf.size()));
}

TEST_CASE("crc32_file reads a whole file, and names the file it cannot open", "[crc32]") {
  TempDir tmp;
  const auto path = tmp.path() / "member.bin";
  std::string content;
  for (int i = 0; i < 300000; ++i) content.push_back(static_cast<char>(i * 7 + (i >> 9)));  // more than one read
  std::ofstream(path, std::ios::binary) << content;
  const auto crc = crc32_file(path.string());
  REQUIRE(crc);
  CHECK(*crc == libdeflate_crc32(0, content.data(), content.size()));
  const auto missing = crc32_file((tmp.path() / "missing").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::file_not_found);
  CHECK_THAT(missing.error().message, Catch::Contains("missing"));
}

TEST_CASE("a CRC-32 is written as eight hex digits and read back only from eight", "[crc32]") {
  CHECK(crc32_hex(0xCBF43926u) == "cbf43926");
  CHECK(crc32_hex(0x1u) == "00000001");
  CHECK(crc32_from_hex("cbf43926") == 0xCBF43926u);
  CHECK(crc32_from_hex("CBF43926") == 0xCBF43926u);
  for (const char* bad : {"", "cbf4392", "cbf439260", "cbf4392g", " bf43926", "-0000001", "0x123456"}) {
    INFO(bad);
    CHECK_FALSE(crc32_from_hex(bad));
  }
}
