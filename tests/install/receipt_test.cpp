#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "cudnnctl/base/crc32.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/install/receipt.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {
const std::string k_lib = "lib64/libcudnn.so.9.1.0";
const std::string k_content = "the library's bytes";

nlohmann::json receipt_json(nlohmann::json file) {
  return {{"schema_version", 2}, {"sha256", std::string(64, 'a')}, {"files", nlohmann::json::array({std::move(file)})}, {"replaced", nlohmann::json::array()}};
}

void write(const fs::path& p, const std::string& content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}
} // namespace

TEST_CASE("a receipt records each file's size and CRC-32, and reads back what it wrote", "[receipt]") {
  Receipt r;
  r.sha256 = std::string(64, 'f');
  r.files.push_back({k_lib, "file", k_content.size(), crc32_update(0, k_content.data(), k_content.size()), "", ""});
  r.files.push_back({"lib64/libcudnn.so.9", "symlink", 0, std::nullopt, "", "libcudnn.so.9.1.0"});
  const auto j = nlohmann::json::parse(receipt_to_json(r));
  CHECK(j["schema_version"] == receipt_schema);
  CHECK(j["files"][0]["crc32"] == crc32_hex(*r.files[0].crc32));
  CHECK_FALSE(j["files"][0].contains("sha256"));
  CHECK(j["files"][1]["link_target"] == "libcudnn.so.9.1.0");
  CHECK_FALSE(j["files"][1].contains("crc32"));
  const auto back = receipt_from_json(j.dump(), "receipt.json");
  REQUIRE(back);
  REQUIRE(back->files.size() == 2);
  CHECK(back->files[0].crc32 == r.files[0].crc32);
  CHECK(back->files[0].size == k_content.size());
  CHECK(back->files[1].kind == "symlink");
  CHECK(back->files[1].link_target == "libcudnn.so.9.1.0");
}

TEST_CASE("check_receipt finds a file changed in place (same size) by its CRC-32, and a schema-1 receipt by its SHA-256", "[receipt]") {
  TempDir tmp;
  const auto root = tmp.path().string();
  write(tmp.path() / k_lib, k_content);
  const auto fs_ = make_real_fs();
  Receipt now;
  now.files.push_back({k_lib, "file", k_content.size(), crc32_update(0, k_content.data(), k_content.size()), "", ""});
  Receipt old;  // what cudnnctl wrote before schema 2: a SHA-256 per file
  old.files.push_back({k_lib, "file", k_content.size(), std::nullopt, *sha256_file((tmp.path() / k_lib).string()), ""});
  CHECK(check_receipt(now, root, *fs_).empty());
  CHECK(check_receipt(old, root, *fs_).empty());

  std::string edited = k_content;
  edited[3] = static_cast<char>(edited[3] ^ 1);  // one bit, the size unchanged
  write(tmp.path() / k_lib, edited);
  const auto by_crc = check_receipt(now, root, *fs_);
  REQUIRE(by_crc.size() == 1);
  CHECK_THAT(by_crc[0], Catch::Contains(k_lib) && Catch::Contains("CRC-32"));
  CHECK(differing_files(now, root, *fs_) == std::vector<std::string>{k_lib});
  const auto by_sha = check_receipt(old, root, *fs_);
  REQUIRE(by_sha.size() == 1);
  CHECK_THAT(by_sha[0], Catch::Contains("SHA-256"));
}

TEST_CASE("a receipt whose file entries cannot be checked, or of a newer schema, is refused as corrupt", "[receipt]") {
  const nlohmann::json good = {{"path", k_lib}, {"kind", "file"}, {"size", 3}, {"crc32", "cbf43926"}};
  REQUIRE(receipt_from_json(receipt_json(good).dump(), "receipt.json"));
  auto old = good;
  old.erase("crc32");
  old["sha256"] = std::string(64, 'b');
  auto schema1 = receipt_json(old);
  schema1["schema_version"] = 1;
  CHECK(receipt_from_json(schema1.dump(), "receipt.json"));  // an older cudnnctl's receipt still reads

  // an entry with one field changed (null: removed), and what the refusal says
  auto with = [](nlohmann::json e, const char* key, nlohmann::json value) {
    if (value.is_null()) e.erase(key);
    else e[key] = std::move(value);
    return e;
  };
  const std::vector<std::pair<nlohmann::json, std::string>> bad = {
      {with(good, "crc32", "cbf4392"), "not 8 hex digits"},
      {with(good, "crc32", "0xcbf439"), "not 8 hex digits"},
      {with(good, "crc32", nullptr), "neither a crc32 nor a sha256"},
      {with(old, "sha256", "abc"), "not 64 hex digits"},
      {with(good, "kind", "fifo"), "unknown kind"},
      {with(good, "path", ""), "no path"},
  };
  for (const auto& [entry, why] : bad) {
    INFO(entry.dump());
    const auto r = receipt_from_json(receipt_json(entry).dump(), "/t/.cudnnctl/receipt.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::io);
    CHECK_THAT(r.error().message, Catch::Contains("/t/.cudnnctl/receipt.json") && Catch::Contains("corrupt") && Catch::Contains(why));
  }
  auto newer = receipt_json(good);
  newer["schema_version"] = receipt_schema + 1;
  const auto r = receipt_from_json(newer.dump(), "receipt.json");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("newer cudnnctl"));
}
