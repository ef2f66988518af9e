// Every file named on the command line goes through one bounded reader: a FIFO, a device or a folder is
// refused at once (never waited on, never read without end), through the real binary with a time limit.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_binary.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {

std::string error_message(const BinaryRun& r) {
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_discarded() ? "(not JSON) " + r.out : j["error"]["message"].get<std::string>();
}
} // namespace

TEST_CASE("input files: FIFOs given to --catalog, --sha256-file, --path-file, --consumer and as the sidecar fail at once", "[cli][input_file]") {
  TempDir tmp;
  const auto fifo = (tmp.path() / "pipe").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto tar = (tmp.path() / (L91 + ".tar.xz")).string();
  fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), tar);
  const auto tk = linux_toolkit(tmp.path(), "12.4").string();

  const auto catalog = run_binary({"inspect", L91 + ".tar.xz", "--catalog", fifo, "--json"});
  CHECK(catalog.code == 9);
  CHECK_THAT(error_message(catalog), Catch::Contains("FIFO") && Catch::Contains(fifo));

  const auto sums = run_binary({"verify", tar, "--sha256-file", fifo, "--json"});
  CHECK(sums.code == 2);
  CHECK_THAT(error_message(sums), Catch::Contains("--sha256-file") && Catch::Contains("FIFO"));

  const auto reg = run_binary({"doctor", "--cuda-path", tk, "--path-file", fifo, "--layer", "1", "--json"});
  CHECK(reg.code == 2);
  CHECK_THAT(error_message(reg), Catch::Contains("--path-file") && Catch::Contains("FIFO"));

  const auto consumer = run_binary({"path", "--cuda-path", tk, "--consumer", fifo, "--json"});
  CHECK(consumer.code == 2);
  CHECK_THAT(error_message(consumer), Catch::Contains("--consumer") && Catch::Contains("FIFO"));

  // a renamed archive is sniffed for its format: a FIFO there is refused too
  const auto odd = (tmp.path() / "odd.zip").string();
  REQUIRE(::mkfifo(odd.c_str(), 0600) == 0);
  const auto sniffed = run_binary({"verify", odd, "--sha256", std::string(64, 'a'), "--json"});
  CHECK(sniffed.code == 2);
  CHECK_THAT(error_message(sniffed), Catch::Contains("the archive") && Catch::Contains("FIFO"));

  REQUIRE(::mkfifo((tar + ".sha256").c_str(), 0600) == 0);
  const auto sidecar = run_binary({"verify", tar, "--json"});
  CHECK(sidecar.code == 2);
  CHECK_THAT(error_message(sidecar), Catch::Contains("sidecar") && Catch::Contains("FIFO"));
}

TEST_CASE("input files: /dev/zero as --catalog or --path-file is refused, not read without end", "[cli][input_file]") {
  TempDir tmp;
  const auto tk = linux_toolkit(tmp.path(), "12.4").string();
  const auto catalog = run_binary({"inspect", L91 + ".tar.xz", "--catalog", "/dev/zero", "--json"});
  CHECK(catalog.code == 9);
  CHECK_THAT(error_message(catalog), Catch::Contains("character device"));
  const auto reg = run_binary({"doctor", "--cuda-path", tk, "--path-file", "/dev/zero", "--layer", "1", "--json"});
  CHECK(reg.code == 2);
  CHECK_THAT(error_message(reg), Catch::Contains("character device"));
  const auto folder = run({"inspect", L91 + ".tar.xz", "--catalog", tmp.str()});
  CHECK(folder.code == 9);
  CHECK_THAT(folder.err, Catch::Contains("a folder"));
}

TEST_CASE("path --consumer naming nothing is an error", "[cli][input_file][path]") {
  TempDir tmp;
  const auto tk = linux_toolkit(tmp.path(), "12.4").string();
  const auto r = run({"path", "--cuda-path", tk, "--consumer", (tmp.path() / "nonexistent").string(), "--json"});
  CHECK(r.code == 8);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["error"]["code"] == "io.not-found");
  CHECK_THAT(j["error"]["message"].get<std::string>(), Catch::Contains("--consumer") && Catch::Contains("does not exist"));
}

TEST_CASE("an archive that is a dangling symbolic link is called one", "[cli][input_file]") {
  TempDir tmp;
  const auto link = (tmp.path() / (L91 + ".tar.xz")).string();
  fs::create_symlink(tmp.path() / "moved-away.tar.xz", link);
  const auto r = run({"verify", link, "--sha256", std::string(64, 'a')});
  CHECK(r.code == 8);
  CHECK_THAT(r.err, Catch::Contains("dangling symbolic link") && Catch::Contains("moved-away.tar.xz"));
}

TEST_CASE("explain: a FIFO, a folder or /dev/zero as FILE is refused at once and named for what it is", "[cli][input_file][explain_cli]") {
  TempDir tmp;
  const auto fifo = (tmp.path() / "app.log").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto from_fifo = run_binary({"explain", fifo, "--json"});
  CHECK(from_fifo.code == 2);
  CHECK_THAT(error_message(from_fifo), Catch::Contains("the log") && Catch::Contains("a FIFO (named pipe)") && Catch::Contains(fifo));

  const auto folder = run_binary({"explain", tmp.str(), "--json"});
  CHECK(folder.code == 2);
  CHECK_THAT(error_message(folder), Catch::Contains("is a folder, not a regular file"));

  const auto device = run_binary({"explain", "/dev/zero", "--json"});
  CHECK(device.code == 2);
  CHECK_THAT(error_message(device), Catch::Contains("a character device"));
  // the text form says the same on standard error, with how to pass a pipe instead
  const auto text = run({"explain", fifo});
  CHECK(text.code == 2);
  CHECK_THAT(text.err, Catch::Contains("a FIFO (named pipe)") && Catch::Contains("cudnnctl explain -"));
}

TEST_CASE("explain: a log file over 64 MiB is refused with the way to pass part of it, not cut silently", "[cli][input_file][explain_cli]") {
  TempDir tmp;
  const auto big = tmp.path() / "huge.log";
  std::ofstream(big) << "x\n";
  fs::resize_file(big, (64u << 20) + 4096);  // sparse: no disk used
  const auto r = run_binary({"explain", big.string(), "--json"});
  CHECK(r.code == 2);
  CHECK_THAT(error_message(r), Catch::Contains("more than the 67108864 bytes (64.00 MiB)"));
  const auto j = nlohmann::json::parse(r.out);
  CHECK_THAT(j["error"]["hint"].get<std::string>(), Catch::Contains("tail -c 60M"));
}
