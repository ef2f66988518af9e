// -v/--verbose and --log-file through the CLI: the log goes to stderr or the file, never into stdout.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_binary.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Archive {
  TempDir tmp;
  std::string path = (tmp.path() / (L91 + ".tar.xz")).string();
  std::string hash;
  Archive() {
    fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), path);
    hash = *sha256_file(path);
  }
};
} // namespace

TEST_CASE("log cli: -v before or after the command logs to stderr and leaves stdout as it was", "[cli][log]") {
  Archive a;
  const auto quiet = run({"verify", a.path, "--sha256", a.hash});
  REQUIRE(quiet.code == 0);
  CHECK_THAT(quiet.err, !Catch::Contains("[info]") && !Catch::Contains("[debug]"));

  const auto after = run({"verify", a.path, "--sha256", a.hash, "-v"});
  CHECK(after.code == 0);
  CHECK(after.out == quiet.out);
  CHECK_THAT(after.err, Catch::Contains("[info] verify: ") && Catch::Contains("matches the SHA-256 from --sha256"));
  CHECK_THAT(after.err, Catch::Contains("[info] verify finished in") && !Catch::Contains("[debug]"));

  const auto before = run({"-vv", "verify", a.path, "--sha256", a.hash});
  CHECK(before.code == 0);
  CHECK(before.out == quiet.out);
  CHECK_THAT(before.err, Catch::Contains("[debug] open for reading " + a.path));
  CHECK_THAT(before.err, Catch::Contains("[debug] SHA-256 of " + a.path + ": " + a.hash));

  // split between both sides, and the long form: counts add up to trace
  const auto both = run({"-v", "verify", a.path, "--sha256", a.hash, "--verbose", "-v"});
  CHECK(both.code == 0);
  CHECK_THAT(both.err, Catch::Contains("[debug] open for reading"));
}

TEST_CASE("log cli: --json stdout stays one JSON document with -vv", "[cli][log]") {
  Archive a;
  const auto quiet = run({"verify", a.path, "--sha256", a.hash, "--json"});
  const auto loud = run({"verify", a.path, "--sha256", a.hash, "--json", "-vv"});
  REQUIRE(loud.code == 0);
  CHECK(nlohmann::json::parse(loud.out) == nlohmann::json::parse(quiet.out));
  CHECK_THAT(loud.out, !Catch::Contains("[debug]") && !Catch::Contains("[info]"));
  CHECK_THAT(loud.err, Catch::Contains("[debug]"));
  // and an error stays a JSON document too
  const auto bad = run({"verify", a.path, "--sha256", std::string(64, '0'), "--json", "-vv"});
  CHECK(bad.code == 4);
  CHECK(nlohmann::json::parse(bad.out)["error"]["code"] == "verify.mismatch");
  CHECK_THAT(bad.err, Catch::Contains("exit code 4 (verify.mismatch)"));
}

TEST_CASE("log cli: --log-file takes the log instead of stderr", "[cli][log]") {
  Archive a;
  const auto file = a.tmp.path() / "cudnnctl.log";
  const auto r = run({"--log-file", file.string(), "verify", a.path, "--sha256", a.hash});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const auto text = read_all(file);
  // --log-file alone logs at debug level
  CHECK_THAT(text, Catch::Contains("[info] cudnnctl ") && Catch::Contains("[debug] open for reading " + a.path));
  // a second run appends, after the command's name too
  REQUIRE(run({"verify", a.path, "--sha256", a.hash, "--log-file", file.string(), "-v"}).code == 0);
  const auto again = read_all(file);
  CHECK(again.starts_with(text));
  CHECK(again.size() > text.size());
}

TEST_CASE("log cli: a --log-file that cannot be written is an I/O error (exit 8) before any work", "[cli][log]") {
  Archive a;
  const auto nowhere = (a.tmp.path() / "no-such-folder" / "x.log").string();
  const auto r = run({"install", a.path, "--sha256", a.hash, "--cuda-path", a.tmp.path().string(), "--log-file", nowhere});
  CHECK(r.code == 8);
  CHECK_THAT(r.err, Catch::Contains("cannot open the log file") && Catch::Contains("--log-file") && Catch::Contains("hint:"));
  CHECK_FALSE(fs::exists(a.tmp.path() / "no-such-folder"));
  const auto j = run({"verify", a.path, "--json", "--log-file", a.tmp.path().string()});
  CHECK(j.code == 8);
  CHECK(nlohmann::json::parse(j.out)["error"]["code"] == "io.error");
}

TEST_CASE("log cli: install -v times each phase, -vvv lists every move", "[cli][log]") {
  Archive a;
  const auto root = linux_toolkit(a.tmp.path(), "12.4").string();
  const auto r = run({"install", a.path, "--sha256", a.hash, "--cuda-path", root, "-vvv"});
  REQUIRE(r.code == 0);
  for (const char* phase : {"verify (SHA-256", "extract into ", "plan", "apply (journaled moves)", "commit"})
    CHECK_THAT(r.err, Catch::Contains(std::string("[info] phase ") + phase));
  CHECK_THAT(r.err, Catch::Contains("[info] toolkit: " + root) && Catch::Contains("[trace] move "));
  CHECK_THAT(r.out, !Catch::Contains("phase"));
}

TEST_CASE("log cli: path -vv logs the processes it runs", "[cli][log]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  const auto r = run({"path", "--cuda-path", root.string(), "-vv"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("ldconfig -p (timeout ") && Catch::Contains("ldconfig: exit code "));
}

namespace {
// A CUDA 12.4 toolkit tree holding the fake cuDNN 9.1.0, and the fake driver's version file.
fs::path toolkit_with_fake_cudnn(const TempDir& tmp) {
  const fs::path fakes = CUDNNCTL_FAKES_DIR;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  for (const auto* f : {"libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9",
                        "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9", "libcudnn_heuristic.so.9"})
    fs::copy_file(fakes / f, root / "targets/x86_64-linux/lib" / f);
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  put(root / "driver-version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
  return root;
}
} // namespace

TEST_CASE("log cli: doctor -vv logs what its probe and workload children did, never into their JSON or stdout", "[cli][log]") {
  TempDir tmp;
  const auto root = toolkit_with_fake_cudnn(tmp);
  const std::vector<std::string> doctor{"doctor", "--cuda-path", root.string(), "--driver-library", std::string(CUDNNCTL_FAKES_DIR) + "/libcuda.so.1",
                                        "--driver-version-file", (root / "driver-version").string()};
  auto with = [&](std::vector<std::string> extra) {
    auto args = doctor;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  // stderr: the children's log lines relayed into the parent's, at their level, with the child's time
  const auto merged = run_binary(with({"-vv"}), true, 60);
  CHECK_THAT(merged.out, Catch::Contains("] [info] probe child [") && Catch::Contains("]: probe: cuDNN reports version 90100"));
  CHECK_THAT(merged.out, Catch::Contains("] [debug] probe child [") && Catch::Contains("libcudnn_graph.so.9: loaded"));
  CHECK_THAT(merged.out, Catch::Contains("] [info] workload child [") && Catch::Contains("]: workload: res2 3x3 fp16 NHWC: "));
  CHECK_THAT(merged.out, !Catch::Contains("cudnnctl-log:"));
  // the children's JSON lines were read as before: the probe's steps and the workload's layers arrived
  const auto json_run = run_binary(with({"--no-gpu", "--json", "-vv"}), false, 60);
  const auto report = nlohmann::json::parse(json_run.out);
  for (const auto& c : report["checks"])
    if (c["id"] == "loader.load" || c["id"] == "device.create") CHECK(c["status"] == "pass");
  CHECK_THAT(json_run.out, !Catch::Contains("[debug]") && !Catch::Contains("probe child"));
  // --log-file: the probe child appends to the same file itself (its own pid)
  const auto file = tmp.path() / "doctor.log";
  run_binary(with({"--no-gpu", "--log-file", file.string()}), false, 60);
  const auto text = read_all(file);
  CHECK_THAT(text, Catch::Contains("[info] cudnnctl ") && Catch::Contains(": __probe --lib-dir ") && Catch::Contains("--log-file"));
  CHECK_THAT(text, Catch::Contains("[info] probe: cuDNN reports version 90100") && !Catch::Contains("cudnnctl-log:"));
}

TEST_CASE("log cli: -v and --log-file are accepted after a subcommand's words, like --json", "[cli][log][global_options]") {
  TempDir tmp;
  // catalog list and bundle list: offline; the log names the command line and the exit
  for (const std::vector<std::string>& args : {std::vector<std::string>{"catalog", "list", "-v"}, {"bundle", "list", "-vv"}}) {
    INFO(args[0] + " " + args[1]);
    const auto r = run(args);
    CHECK(r.code == 0);
    CHECK_THAT(r.err, Catch::Contains("[info] cudnnctl ") && Catch::Contains("finished in"));
    CHECK_THAT(r.out, !Catch::Contains("[info]"));
  }
  // catalog update -v against a mirror that is not there (127.0.0.1, port 1): a download error, not a usage error
  const auto update = run({"catalog", "update", "--mirror", "http://127.0.0.1:1", "--timeout", "5", "-v"});
  CHECK(update.code != 2);
  CHECK_THAT(update.err, Catch::Contains("[info] cudnnctl ") && Catch::Contains("catalog update") && !Catch::Contains("not expected"));
  // doctor --log-file FILE after the command: the log goes to the file, at debug level
  const auto root = linux_toolkit(tmp.path(), "12.4").string();
  const auto log = tmp.path() / "doctor.log";
  const auto doctor = run({"doctor", "--cuda-path", root, "--log-file", log.string()});
  CHECK(doctor.code != 2);
  const auto text = read_all(log);
  CHECK_THAT(text, Catch::Contains("[info] cudnnctl ") && Catch::Contains("[debug]"));
  // bundle list --log-file FILE -v: both on a subcommand, the level from -v
  const auto list_log = tmp.path() / "bundle.log";
  REQUIRE(run({"bundle", "list", "--log-file", list_log.string(), "-v"}).code == 0);
  CHECK_THAT(read_all(list_log), Catch::Contains("[info] cudnnctl ") && !Catch::Contains("[debug]"));
}
