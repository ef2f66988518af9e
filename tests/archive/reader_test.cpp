#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "cudnnctl/archive/entry_name.hpp"
#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/base/crc32.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "test_archives.hpp"

using namespace cudnnctl;
using cudnnctl::testing::L91;
using cudnnctl::testing::W91;
using cudnnctl::testing::TempDir;
using cudnnctl::testing::options_for;
using cudnnctl::testing::test_archive;
namespace fs = std::filesystem;

namespace {

std::map<std::string, std::pair<EntryType, std::uint64_t>> files_of(const ArchiveListing& l) {
  std::map<std::string, std::pair<EntryType, std::uint64_t>> m;
  for (const auto& e : l.entries)
    if (e.type != EntryType::directory) m[e.name] = {e.type, e.size};
  return m;
}


// Everything under `root` except the staging folder itself: must stay empty whatever happens.
std::vector<std::string> outside_staging(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(root))
    if (e.path().filename() != "staging") out.push_back(e.path().string());
  return out;
}
} // namespace

TEST_CASE("zips written by Python, Info-ZIP and 7-Zip read identically", "[reader]") {
  const auto py = list_archive(test_archive("good/python-" + W91 + ".zip"), ArchiveFormat::zip);
  REQUIRE(py);
  const auto reference = files_of(*py);
  CHECK(reference.size() == 8);
  for (const std::string writer : {"infozip-", "7z-"}) {
    const auto path = test_archive("good/" + writer + W91 + ".zip");
    if (!fs::exists(path)) continue;  // the writer was not installed when the archives were made
    INFO(path);
    const auto l = list_archive(path, ArchiveFormat::zip);
    REQUIRE(l);
    CHECK(files_of(*l) == reference);
  }
}

TEST_CASE("real-layout archives of each era extract byte for byte, links as links", "[reader]") {
  TempDir tmp;
  const auto staging = (tmp.path() / "staging").string();
  fs::create_directories(staging);
  const auto r = extract_archive(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::tar_xz, staging, options_for(L91));
  REQUIRE(r);
  CHECK(r->files == 4);
  const auto lib = fs::path(staging) / L91 / "lib";
  CHECK(fs::is_symlink(lib / "libcudnn.so.9"));
  CHECK(fs::read_symlink(lib / "libcudnn.so.9") == "libcudnn.so.9.1.0");
  CHECK(fs::is_symlink(lib / "libcudnn.so"));
  CHECK(fs::file_size(lib / "libcudnn.so.9.1.0") == 30000);
  CHECK(outside_staging(tmp.path()).empty());
  // every file's CRC-32 (what a receipt records), computed as it was written: one per file, none for links
  CHECK(r->member_crc32.size() == r->files);
  for (const auto& [name, crc] : r->member_crc32) {
    INFO(name);
    CHECK(crc == *crc32_file((fs::path(staging) / name).string()));
  }

  for (const auto& [name, top] : std::vector<std::pair<std::string, std::string>>{
           {"good/python-" + W91 + ".zip", W91}, {"good/cudnn-10.2-windows10-x64-v7.6.5.32.zip", "cuda"}}) {
    TempDir t2;
    const auto st = (t2.path() / "staging").string();
    fs::create_directories(st);
    ExtractOptions o = options_for(top);
    o.threads = 3;
    const auto z = extract_archive(test_archive(name), ArchiveFormat::zip, st, o);
    REQUIRE(z);
    for (const auto& e : z->listing.entries)
      if (e.type == EntryType::file) CHECK(fs::file_size(fs::path(st) / e.name) == e.size);
  }
  TempDir t3;
  const auto st3 = (t3.path() / "staging").string();
  fs::create_directories(st3);
  REQUIRE(extract_archive(test_archive("good/cudnn-11.2-linux-x64-v8.1.1.33.tgz"), ArchiveFormat::tgz, st3, options_for("cuda")));
  CHECK(fs::file_size(fs::path(st3) / "cuda/lib64/libcudnn.so.8.1.1") == 1000);
}

TEST_CASE("hostile archives are refused and nothing exists outside staging", "[reader]") {
  const std::vector<std::pair<std::string, std::string>> zips = {
      {"absolute", "absolute"},           {"drive-letter", "drive letter"}, {"unc", "UNC"},
      {"dotdot", ".."},                   {"backslash-dotdot", ".."},       {"ads", "alternate data stream"},
      {"device-con", "device name"},      {"device-lpt", "device name"},    {"trailing-dot", "dot or space"},
      {"trailing-space", "dot or space"}, {"outside-top", "outside"},       {"case-collision", "case-insensitive"},
      {"duplicate", "twice"},             {"symlink-out", "outside"},       {"symlink-absolute", "absolute"},
      {"bomb-ratio", "zip bomb"},
  };
  for (const auto& [name, why] : zips) {
    INFO(name);
    TempDir tmp;
    const auto staging = (tmp.path() / "staging").string();
    fs::create_directories(staging);
    const auto r = extract_archive(test_archive("hostile/" + name + ".zip"), ArchiveFormat::zip, staging, options_for(W91));
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains(why));
    CHECK(outside_staging(tmp.path()).empty());
    CHECK(fs::is_empty(staging));  // zip members are all checked before the first write
  }
  const std::vector<std::pair<std::string, std::string>> tars = {
      {"tar-symlink-out", "outside"}, {"tar-hardlink-out", "absolute"}, {"tar-below-link", "below the link"},
      {"tar-dotdot", ".."},           {"tar-absolute", "absolute"},     {"tar-fifo", "device, pipe"},
  };
  for (const auto& [name, why] : tars) {
    INFO(name);
    TempDir tmp;
    const auto staging = (tmp.path() / "staging").string();
    fs::create_directories(staging);
    const auto r = extract_archive(test_archive("hostile/" + name + ".tar.xz"), ArchiveFormat::tar_xz, staging, options_for(L91));
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains(why));
    CHECK(outside_staging(tmp.path()).empty());
    CHECK_FALSE(fs::exists("/tmp/evil"));
    for (const auto& e : fs::recursive_directory_iterator(staging))  // no link was created
      CHECK_FALSE(e.is_symlink());
  }
}

TEST_CASE("damaged archives are reported with the entry and sizes", "[reader]") {
  const auto truncated = list_archive(test_archive("odd/truncated.zip"), ArchiveFormat::zip);
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().code == ErrorCode::archive_corrupt);
  CHECK_THAT(truncated.error().message, Catch::Contains("truncated") && Catch::Contains("end-of-central-directory"));

  TempDir tmp;
  const auto staging = (tmp.path() / "staging").string();
  fs::create_directories(staging);
  const auto crc = extract_archive(test_archive("odd/crc.zip"), ArchiveFormat::zip, staging, options_for(W91));
  REQUIRE_FALSE(crc);
  CHECK(crc.error().code == ErrorCode::archive_corrupt);
  CHECK_THAT(crc.error().message, Catch::Contains(W91 + "/") && Catch::Contains("bytes"));

  for (const std::string name : {"odd/truncated.tar.xz", "odd/corrupt.tar.xz"}) {
    INFO(name);
    const auto r = list_archive(test_archive(name), ArchiveFormat::tar_xz);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_corrupt);
    CHECK_THAT(r.error().message, Catch::Contains("xz stream is damaged"));
  }
}

TEST_CASE("zip members come out byte-exact however they are stored, with their CRC-32", "[reader]") {
  for (const auto engine : available_inflaters())
  for (const bool writeback : {false, true}) {
  INFO("inflater " << to_string(engine) << (writeback ? ", writeback started every 1 MiB" : ""));
  TempDir tmp;
  const auto staging = (tmp.path() / "staging").string();
  fs::create_directories(staging);
  auto options = options_for(W91);
  options.threads = 2;
  options.inflater = engine;
  options.start_writeback = writeback;
  options.writeback_step = 1 << 20;
  const auto r = extract_archive(test_archive("odd/methods.zip"), ArchiveFormat::zip, staging, options);
  INFO((r ? std::string() : r.error().message));
  REQUIRE(r);
  std::string big;
  for (std::size_t i = 0; i < (3u << 20); ++i) big.push_back(static_cast<char>((i * 2654435761ull >> 13) & 0xFF));
  for (int i = 0; i < 1000; ++i) big += "tail";
  std::string stored, bzip2;
  for (int i = 0; i < 100; ++i) stored += "stored bytes ", bzip2 += "bzip2 bytes ";
  const std::map<std::string, std::string> expect = {
      {"bin/big.dll", big}, {"bin/empty.dll", ""}, {"bin/stored.dll", stored}, {"bin/bzip2.dll", bzip2}};
  for (const auto& [name, content] : expect) {
    INFO(name);
    std::ifstream in(fs::path(staging) / W91 / name, std::ios::binary);
    const std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(got.size() == content.size());
    CHECK(got == content);
    CHECK(r->member_crc32.at(W91 + "/" + name) == crc32_update(0, content.data(), content.size()));
  }
  }
}

namespace {
struct SideJobRun {
  Result<ExtractResult> result = Unexpected<Error>(Error{});
  int runs = 0;
  std::uint64_t written_before = ~std::uint64_t{0};  // bytes the members had written when it ran
};

// Extracts `archive` with `threads` workers and a side job of `side_bytes` that counts its runs.
SideJobRun extract_with_side_job(const std::string& archive, unsigned threads, std::uint64_t side_bytes) {
  TempDir tmp;
  const auto staging = (tmp.path() / "staging").string();
  fs::create_directories(staging);
  auto options = options_for(W91);
  options.threads = threads;
  std::atomic<std::uint64_t> written{0};
  options.on_bytes = [&](std::uint64_t n) { written += n; };
  SideJobRun out;
  std::mutex mutex;
  options.side_job = {[&] {
                        std::lock_guard lock(mutex);
                        ++out.runs;
                        out.written_before = written.load();
                      },
                      side_bytes};
  out.result = extract_archive(test_archive(archive), ArchiveFormat::zip, staging, options);
  return out;
}
} // namespace

TEST_CASE("zip workers run the caller's side job once, in its place by cost", "[reader]") {
  // methods.zip: big.dll 3149728 bytes, stored.dll 1300, bzip2.dll 1200, empty.dll 0; one worker takes
  // the jobs in order of cost: members ~1.6 ns per byte out, the side job ~0.7 per byte read
  const std::uint64_t big = 3149728, all = big + 1300 + 1200;
  for (const auto& [side_bytes, written_before] :
       {std::pair{std::uint64_t{1} << 40, std::uint64_t{0}}, std::pair{std::uint64_t{1} << 20, big}, std::pair{std::uint64_t{0}, all}}) {
    INFO("side job of " << side_bytes << " bytes");
    const auto r = extract_with_side_job("odd/methods.zip", 1, side_bytes);
    INFO((r.result ? std::string() : r.result.error().message));
    REQUIRE(r.result);
    CHECK(r.runs == 1);
    CHECK(r.written_before == written_before);
    CHECK(r.result->files == 4);
    CHECK(r.result->bytes_written == all);
  }
  // more workers than jobs: still once
  const auto many = extract_with_side_job("odd/methods.zip", 8, 1000);
  REQUIRE(many.result);
  CHECK(many.runs == 1);
  // a member that fails stops the worker before a cheaper side job: the caller must run it
  const auto failed = extract_with_side_job("odd/crc-deflated.zip", 1, 0);
  REQUIRE_FALSE(failed.result);
  CHECK(failed.runs == 0);
}

TEST_CASE("a damaged zip member is named with how far it got, stored or deflated", "[reader]") {
  const std::map<std::string, std::pair<ErrorCode, std::string>> cases = {
      {"odd/crc-deflated.zip", {ErrorCode::archive_corrupt, "big.dll' fails its CRC check after 3149728 of 3149728 bytes"}},
      {"odd/crc-stored.zip", {ErrorCode::archive_corrupt, "stored.dll' fails its CRC check after 1300 of 1300 bytes"}},
      {"odd/inflate-garbage.zip", {ErrorCode::archive_corrupt, "big.dll' cannot be inflated after 0 of 3149728 bytes"}},
      {"odd/inflate-runaway.zip", {ErrorCode::archive_too_large, "big.dll' inflates past its declared size of 3149728 bytes"}}};
  for (const auto engine : available_inflaters())
  for (const auto& [name, expected] : cases) {
    const auto& [code, why] = expected;
    INFO(name << " with the " << to_string(engine) << " inflater");
    TempDir tmp;
    const auto staging = (tmp.path() / "staging").string();
    fs::create_directories(staging);
    auto options = options_for(W91);
    options.inflater = engine;
    const auto r = extract_archive(test_archive(name), ArchiveFormat::zip, staging, options);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == code);
    CHECK_THAT(r.error().message, Catch::Contains(why));
    CHECK(outside_staging(tmp.path()).empty());
  }
}

TEST_CASE("files that are not archives are named in plain words", "[reader][sniff]") {
  const auto html = check_is_archive(test_archive("odd/login-page.zip"), ArchiveFormat::zip);
  REQUIRE_FALSE(html);
  CHECK(html.error().code == ErrorCode::archive_not_archive);
  CHECK_THAT(html.error().message, Catch::Contains("web page"));
  CHECK_THAT(check_is_archive(test_archive("odd/empty.zip"), ArchiveFormat::zip).error().message, Catch::Contains("empty"));
  CHECK_THAT(check_is_archive(test_archive("odd/error-text.zip"), ArchiveFormat::zip).error().message,
             Catch::Contains("403 Forbidden"));
  CHECK_THAT(check_is_archive(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::zip).error().message,
             Catch::Contains("is a xz file"));
  CHECK(sniff_bytes("PK\x03\x04") == FileKind::zip);
  CHECK(sniff_bytes(std::string("\xFD" "7zXZ\0", 6)) == FileKind::xz);
  CHECK(sniff_bytes("\x1F\x8B\x08") == FileKind::gzip);
  CHECK(sniff_bytes("  <html>") == FileKind::html);
}

TEST_CASE("names: UTF-8 by default, legacy encodings on request, mojibake refused", "[reader][entry_name]") {
  const auto raw = list_archive(test_archive("odd/cp437.zip"), ArchiveFormat::zip);
  REQUIRE_FALSE(raw);
  CHECK(raw.error().code == ErrorCode::archive_encoding);
  CHECK_THAT(raw.error().message, Catch::Contains("not valid UTF-8") && Catch::Contains("\\x81"));
  ReadOptions cp437;
  cp437.name_encoding = "CP437";
  const auto decoded = list_archive(test_archive("odd/cp437.zip"), ArchiveFormat::zip, cp437);
  REQUIRE(decoded);
  CHECK(decoded->entries[0].name == W91 + "/include/\xC3\xBC" "ber.h");  // über.h
  ReadOptions bogus;
  bogus.name_encoding = "NO-SUCH-ENCODING";
  CHECK(list_archive(test_archive("odd/cp437.zip"), ArchiveFormat::zip, bogus).error().code == ErrorCode::usage);
  for (const std::string name : {"odd/mojibake-fffd.zip", "odd/mojibake-ideographic-stop.zip", "odd/mojibake-kunjinkao.zip"}) {
    INFO(name);
    const auto r = list_archive(test_archive(name), ArchiveFormat::zip);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_encoding);
    CHECK_THAT(r.error().hint, Catch::Contains("original NVIDIA archive"));
  }
  CHECK(looks_like_mojibake("cudnn\xE3\x80\x82h"));
  CHECK_FALSE(looks_like_mojibake("cudnn.h"));
}

TEST_CASE("streaming SHA-256 matches known digests", "[sha256]") {
  TempDir tmp;
  const auto p = (tmp.path() / "abc").string();
  std::ofstream(p) << "abc";
  CHECK(*sha256_file(p) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const auto empty = (tmp.path() / "empty").string();
  std::ofstream{empty};
  CHECK(*sha256_file(empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_file((tmp.path() / "missing").string()).error().code == ErrorCode::file_not_found);
}
