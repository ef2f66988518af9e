#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <chrono>
#include <thread>

#include "cudnnctl/fetch/arriving_bytes.hpp"
#include "test_archives.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {

// An archive extracted while only some of its bytes are "on the disk": the whole file is there, but every
// read waits on `arriving`, which the test lets grow.
struct ArrivingRun {
  TempDir tmp;
  std::string file, staging;
  std::uint64_t size = 0;
  ArrivingBytes arriving;
  std::atomic<bool> done{false};
  std::optional<Result<ExtractResult>> result;
  std::thread thread;

  ArrivingRun(const std::string& source, ArchiveFormat format, const std::string& top) {
    file = (tmp.path() / "archive.part").string();
    fs::copy_file(source, file);
    size = fs::file_size(file);
    staging = (tmp.path() / "staging").string();
    fs::create_directories(staging);
    auto options = options_for(top);
    options.read.arriving = {size, [this](std::uint64_t b, std::uint64_t e) { return arriving.wait_for(b, e); }};
    thread = std::thread([this, format, options] {
      result = extract_archive(file, format, staging, options);
      done = true;
    });
  }
  ~ArrivingRun() {
    arriving.finish();
    if (thread.joinable()) thread.join();
  }
  void report(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> extents) {
    ExtentSet s;
    for (const auto& [b, e] : extents) s.add(b, std::min(e, size));
    arriving.report(s);
  }
  bool appears(const std::string& member, std::uint64_t bytes) const {
    const auto p = fs::path(staging) / member;
    for (int i = 0; i < 100; ++i) {
      std::error_code ec;
      if (fs::exists(p, ec) && fs::file_size(p, ec) == bytes) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  Result<ExtractResult> finish() {
    thread.join();
    return std::move(*result);
  }
};

// The archives with large members after the small ones (make_test_archives.py's arriving/ set: small ones
// would be wanted nearly whole before a first member could come out).
std::string big_zip() { return test_archive("arriving/" + W91 + ".zip"); }
std::string big_tar_xz() { return test_archive("arriving/" + L91 + ".tar.xz"); }

} // namespace

TEST_CASE("arriving input: a zip's first members inflate before its last bytes arrive, and the rest follows them", "[arriving_extract]") {
  ArrivingRun run(big_zip(), ArchiveFormat::zip, W91);
  // the first 60 KB (the small members and part of the first large one) and the last 70 KB (the end of
  // the second large one and the central directory): the small members can come out already
  run.report({{0, 60000}, {run.size - 70000, run.size}});
  REQUIRE(run.appears(W91 + "/LICENSE", 13));
  CHECK_FALSE(run.done.load());  // still waiting for the bytes in between
  run.report({{0, run.size}});
  const auto r = run.finish();
  REQUIRE(r);
  CHECK(fs::file_size(fs::path(run.staging) / W91 / "bin/cudnn_cnn64_9.dll") == 100000);
}

TEST_CASE("arriving input: a tar.xz decodes as its prefix grows", "[arriving_extract]") {
  ArrivingRun run(big_tar_xz(), ArchiveFormat::tar_xz, L91);
  run.report({{0, run.size * 2 / 5}});
  REQUIRE(run.appears(L91 + "/LICENSE", 13));  // the first member, decoded from the first 40%
  CHECK_FALSE(run.done.load());
  run.report({{0, run.size}});
  const auto r = run.finish();
  REQUIRE(r);
  CHECK(r->files > 0);
}

TEST_CASE("arriving input: a transfer that stops, or bytes dropped, is an error, never a partial success", "[arriving_extract]") {
  SECTION("stopped") {
    ArrivingRun run(big_zip(), ArchiveFormat::zip, W91);
    run.report({{0, 60000}, {run.size - 70000, run.size}});
    run.arriving.finish();
    CHECK_FALSE(run.finish());
  }
  SECTION("dropped") {
    ArrivingRun run(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::tar_xz, L91);
    run.report({{0, run.size / 2}});
    run.arriving.report(ExtentSet{});  // a restart: what was reported is gone
    CHECK(run.arriving.dropped());
    CHECK_FALSE(run.finish());
  }
}

TEST_CASE("arriving bytes: waits until a range is there, and a report that drops bytes fails every wait", "[arriving_extract]") {
  ArrivingBytes a;
  ExtentSet s;
  s.add(0, 100);
  a.report(s);
  CHECK(a.wait_for(10, 100));
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ExtentSet t;
    t.add(0, 300);
    a.report(t);
  });
  CHECK(a.wait_for(200, 300));
  later.join();
  CHECK_FALSE(a.dropped());
  ExtentSet smaller;
  smaller.add(0, 50);
  a.report(smaller);
  CHECK(a.dropped());
  CHECK_FALSE(a.wait_for(0, 10));
  ArrivingBytes b;
  b.finish();
  CHECK_FALSE(b.wait_for(0, 1));
}
