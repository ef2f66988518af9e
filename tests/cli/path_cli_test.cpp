#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/env/ld_conf.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("path: shell lines, JSON, and the Linux apply in a temporary root", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  const auto lib = fs::weakly_canonical(root / "lib64").string();
  ::setenv("LD_LIBRARY_PATH", ("/opt/old/lib:" + lib + "/").c_str(), 1);

  const auto bash = run({"path", "--cuda-path", root.string(), "--shell", "bash"});
  REQUIRE(bash.code == 0);
  const auto r = root.string();
  CHECK(bash.out == "export LD_LIBRARY_PATH='" + lib + ":/opt/old/lib'\nexport CUDNN_PATH='" + r + "'\n");
  CHECK(run({"path", "--cuda-path", r, "--shell", "fish"}).out ==
        "set -gx LD_LIBRARY_PATH '" + lib + ":/opt/old/lib'\nset -gx CUDNN_PATH '" + r + "'\n");
  CHECK(run({"path", "--cuda-path", r, "--shell", "pwsh"}).out ==
        "$env:LD_LIBRARY_PATH = '" + lib + ":/opt/old/lib'\n$env:CUDNN_PATH = '" + r + "'\n");

  const auto j = nlohmann::json::parse(run({"path", "--cuda-path", root.string(), "--json"}).out);
  CHECK(j["folder"] == lib);
  CHECK(j["changed"] == true);
  CHECK(j["dropped"].size() == 1);
  CHECK(j["applied"].is_null());

  const auto sysroot = tmp.path() / "sysroot";
  ::setenv("CUDNNCTL_LDCONFIG", "true", 1);
  const auto applied = run({"path", "--cuda-path", root.string(), "--apply", "--root", sysroot.string()});
  REQUIRE(applied.code == 0);
  const auto conf = sysroot / "etc/ld.so.conf.d" / ld_conf_file_name(fs::weakly_canonical(root).string());
  REQUIRE(fs::exists(conf));
  std::ifstream in(conf);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK_THAT(ss.str(), Catch::Contains(lib + "\n"));
  CHECK_THAT(run({"path", "--cuda-path", root.string(), "--apply", "--root", sysroot.string()}).out, Catch::Contains("already lists"));
  ::unsetenv("CUDNNCTL_LDCONFIG");

  // user/machine scopes are the Windows registry's
  const auto scope = run({"path", "--cuda-path", root.string(), "--apply", "--scope", "user"});
  CHECK(scope.code == 2);
  CHECK_THAT(scope.err, Catch::Contains("Windows only"));
  ::unsetenv("LD_LIBRARY_PATH");
}

TEST_CASE("path on GitHub Actions appends GITHUB_PATH and GITHUB_ENV", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "13.0");
  const auto gpath = (tmp.path() / "gh_path").string();
  const auto genv = (tmp.path() / "gh_env").string();
  ::setenv("GITHUB_ACTIONS", "true", 1);
  ::setenv("GITHUB_PATH", gpath.c_str(), 1);
  ::setenv("GITHUB_ENV", genv.c_str(), 1);
  const auto r = run({"path", "--cuda-path", root.string()});
  ::unsetenv("GITHUB_ACTIONS");
  ::unsetenv("GITHUB_PATH");
  ::unsetenv("GITHUB_ENV");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("github: GITHUB_PATH += " + (root / "bin").string()));
  std::ifstream in(genv);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK_THAT(ss.str(), Catch::Contains("CUDA_PATH<<ghadelimiter_") && Catch::Contains("CUDNN_PATH<<") && Catch::Contains("LD_LIBRARY_PATH<<"));
}

namespace {
// a toolkit with a cuDNN 9 in its library folder
fs::path toolkit_with_cudnn(const fs::path& base, const std::string& version) {
  const auto root = linux_toolkit(base, version);
  put(root / "targets/x86_64-linux/lib/libcudnn.so.9.19.0", "cudnn");
  fs::create_symlink("libcudnn.so.9.19.0", root / "targets/x86_64-linux/lib/libcudnn.so.9");
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
  return root;
}

// a stand-in for ldconfig: "-p" prints the cache given in $FAKE_LDCACHE, anything else does nothing
std::string fake_ldconfig(const TempDir& tmp) {
  const auto script = (tmp.path() / "fake-ldconfig").string();
  std::ofstream(script) << "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -p ] && cat \"$FAKE_LDCACHE\"; done\nexit 0\n";
  fs::permissions(script, fs::perms::owner_all);
  return script;
}
} // namespace

TEST_CASE("path: every printed next step names the toolkit, so it runs as printed", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path() / "it's here", "12.4").string();
  const auto r = run({"path", "--cuda-path", root});
  REQUIRE(r.code == 0);
  const auto quoted = "'" + tmp.str() + "/it'\\''s here/linux-12.4'";
  CHECK_THAT(r.out, Catch::Contains("sudo cudnnctl path --cuda-path " + quoted + " --apply"));
  CHECK_THAT(r.out, Catch::Contains("eval \"$(cudnnctl path --cuda-path " + quoted + " --shell bash)\""));
  const auto j = nlohmann::json::parse(run({"path", "--cuda-path", root, "--json"}).out);
  CHECK(j["next"]["apply"] == "sudo cudnnctl path --cuda-path " + quoted + " --apply");
  // the printed eval line, run by a shell, prints the same lines as the command itself
  CHECK(toolkit_command("/opt/cuda-12", "path", "--apply") == "cudnnctl path --cuda-path /opt/cuda-12 --apply");
}

TEST_CASE("path --apply: one file per toolkit, refused folders, and the ld.so cache checked", "[cli][path]") {
  TempDir tmp;
  ScopedEnv env;
  env.set("CUDNNCTL_LDCONFIG", fake_ldconfig(tmp));
  const auto sysroot = tmp.path() / "sysroot";
  const auto a = toolkit_with_cudnn(tmp.path() / "a", "12.4");
  const auto b = toolkit_with_cudnn(tmp.path() / "b", "12.4");  // same last folder name as a
  const auto lib_a = fs::weakly_canonical(a / "lib64").string();
  const auto lib_b = fs::weakly_canonical(b / "lib64").string();
  const auto cache = (tmp.path() / "cache.txt").string();
  env.set("FAKE_LDCACHE", cache);

  // the cache gives a's copy first: applied
  std::ofstream(cache) << "2 libs found in cache `/etc/ld.so.cache'\n\tlibcudnn.so.9 (libc6,x86-64) => " << lib_a
                       << "/libcudnn.so.9\n\tlibcudnn.so.9 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.9\n";
  const auto ok = run({"path", "--cuda-path", a.string(), "--apply", "--root", sysroot.string()});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("applied:") && Catch::Contains("now gives libcudnn.so.9 from " + lib_a));

  // b has the same last folder name: its own file, a's stays
  std::ofstream(cache) << "\tlibcudnn.so.9 (libc6,x86-64) => " << lib_a << "/libcudnn.so.9\n\tlibcudnn.so.9 (libc6,x86-64) => " << lib_b
                       << "/libcudnn.so.9\n";
  const auto shadowed = run({"path", "--cuda-path", b.string(), "--apply", "--root", sysroot.string(), "--json"});
  CHECK(shadowed.code == 12);
  const auto j = nlohmann::json::parse(shadowed.out);
  CHECK(j["error"]["code"] == "path.not-effective");
  const auto conf_a = (sysroot / "etc/ld.so.conf.d" / ld_conf_file_name(fs::weakly_canonical(a).string())).string();
  CHECK_THAT(j["error"]["message"].get<std::string>(), Catch::Contains(lib_a + " comes first") && Catch::Contains(conf_a));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(sysroot / "etc/ld.so.conf.d")) ++files;
  CHECK(files == 2);

  // a folder ldconfig would cut at '#': refused before anything is written
  const auto hashed = toolkit_with_cudnn(tmp.path() / "hash#dir", "12.4");
  const auto refused = run({"path", "--cuda-path", hashed.string(), "--apply", "--root", sysroot.string()});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("'#' starts a comment"));
  files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(sysroot / "etc/ld.so.conf.d")) ++files;
  CHECK(files == 2);
}

TEST_CASE("path --apply with the real ldconfig in a temporary root says what still shadows", "[cli][path]") {
  if (std::system("ldconfig --version > /dev/null 2>&1") != 0) {
    CUDNNCTL_SKIP("ldconfig is not on this machine");
  }
  TempDir tmp;
  const auto sysroot = fs::weakly_canonical(tmp.path()) / "lr";
  const auto older = toolkit_with_cudnn(sysroot / "opt", "12.0");
  const auto newer = toolkit_with_cudnn(sysroot / "opt", "13.0");
  // ldconfig lists ELF libraries by their SONAME: the fake cuDNN built for the doctor's tests has libcudnn.so.9
  for (const auto& t : {older, newer})
    fs::copy_file(std::string(CUDNNCTL_FAKES_DIR) + "/libcudnn.so.9", t / "targets/x86_64-linux/lib/libcudnn.so.9.19.0",
                  fs::copy_options::overwrite_existing);
  put(sysroot / "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  put(sysroot / "etc/ld.so.conf.d/000_cuda-12.conf", "/opt/linux-12.0/targets/x86_64-linux/lib\n");
  const auto r = run({"path", "--cuda-path", newer.string(), "--apply", "--root", sysroot.string()});
  CHECK(r.code == 12);
  CHECK_THAT(r.err, Catch::Contains("/opt/linux-12.0/targets/x86_64-linux/lib comes first") && Catch::Contains("000_cuda-12.conf"));
  fs::remove(sysroot / "etc/ld.so.conf.d/000_cuda-12.conf");
  const auto fixed = run({"path", "--cuda-path", newer.string(), "--apply", "--root", sysroot.string()});
  CHECK(fixed.code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("now gives libcudnn.so.9 from /opt/linux-13.0/targets/x86_64-linux/lib"));
}

namespace {
// A toolkit with cuDNN, and a stale libcudnn.so.9 in a folder the commands run in.
struct StaleCopyInCurrentFolder {
  TempDir tmp;
  fs::path root = toolkit_with_cudnn(tmp.path(), "12.4");
  fs::path cwd = tmp.path() / "cwdtest";
  StaleCopyInCurrentFolder() {
    put(cwd / "libcudnn.so.9.1.0", "stale");
    fs::create_symlink("libcudnn.so.9.1.0", cwd / "libcudnn.so.9");
  }
  // each command run in cwd with this LD_LIBRARY_PATH, then both put back
  std::vector<Run> run_there(const std::string& ld_library_path, const std::vector<std::vector<std::string>>& commands) const {
    const auto old_cwd = fs::current_path();
    fs::current_path(cwd);
    ScopedEnv env;
    env.set("LD_LIBRARY_PATH", ld_library_path);
    std::vector<Run> runs;
    for (const auto& c : commands) runs.push_back(run(c));
    fs::current_path(old_cwd);
    return runs;
  }
};
} // namespace

TEST_CASE("path: empty and relative LD_LIBRARY_PATH entries are the current folder, and warned about", "[cli][path]") {
  const StaleCopyInCurrentFolder t;
  const auto& root = t.root;
  const auto& cwd = t.cwd;
  const auto runs = t.run_there("/opt/x::relative/dir:/nonexistent:", {{"path", "--cuda-path", root.string(), "--json"},
                                                                        {"path", "--cuda-path", root.string(), "--shell", "bash"}});
  const auto& r = runs[0];
  const auto& shell = runs[1];
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  // the empty entry is in the order, as the current folder, and its stale copy is what programs load
  bool seen = false;
  for (const auto& o : j["shadow_scan"]["order"])
    if (o["dir"] == fs::weakly_canonical(cwd).string()) seen = true;
  CHECK(seen);
  const auto& first = j["shadow_scan"]["copies"][0];
  CHECK(first["version"] == "9.1.0");
  CHECK(first["wins"] == true);
  CHECK_THAT(first["via"].get<std::string>(), Catch::Contains("empty entry"));
  const auto warnings = j["warnings"].dump();
  CHECK_THAT(warnings, Catch::Contains("empty entry") && Catch::Contains("'relative/dir' is relative"));
  // the value to set leaves the empty entries out
  const auto lib = fs::weakly_canonical(root / "lib64").string();
  CHECK_THAT(shell.out, Catch::Contains("export LD_LIBRARY_PATH='" + lib + ":/opt/x:relative/dir:/nonexistent'\n"));
}

TEST_CASE("path: a toolkit folder with ':' or a line break gets no LD_LIBRARY_PATH or GITHUB_PATH lines", "[cli][path]") {
  TempDir tmp;
  const auto colon = linux_toolkit(tmp.path() / "colon:dir", "12.4").string();
  const auto r = run({"path", "--cuda-path", colon, "--shell", "bash"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("contains ':'"));
  const auto text = run({"path", "--cuda-path", colon});
  CHECK(text.code == 0);
  CHECK_THAT(text.err, Catch::Contains("contains ':'"));

  const auto newline = linux_toolkit(tmp.path() / "new\nline", "12.4").string();
  ScopedEnv env;
  const auto gpath = (tmp.path() / "gh_path").string();
  env.set("GITHUB_ACTIONS", "true");
  env.set("GITHUB_PATH", gpath);
  env.set("GITHUB_ENV", (tmp.path() / "gh_env").string());
  const auto gh = run({"path", "--cuda-path", newline, "--json"});
  CHECK(gh.code == 2);
  CHECK_THAT(nlohmann::json::parse(gh.out)["error"]["message"].get<std::string>(), Catch::Contains("line break"));
  CHECK_FALSE(fs::exists(gpath));
}

TEST_CASE("path on a toolkit with no cuDNN says so, and claims no installed copy", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  ScopedEnv env;
  env.set("LD_LIBRARY_PATH", fs::weakly_canonical(root / "lib64").string());
  const auto r = run({"path", "--cuda-path", root.string()});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("holds no cuDNN"));
  CHECK(r.out.find("the installed cuDNN") == std::string::npos);
  CHECK(r.err.find("the installed cuDNN") == std::string::npos);
}

TEST_CASE("doctor sees the cuDNN an empty LD_LIBRARY_PATH entry loads from the current folder", "[cli][path]") {
  const StaleCopyInCurrentFolder t;
  const auto r = t.run_there("/opt/x::/nonexistent", {{"doctor", "--cuda-path", t.root.string(), "--layer", "2", "--json"}})[0];
  // before: the empty entry was dropped and the toolkit's copy was said to win
  CHECK_THAT(r.out, Catch::Contains("an empty entry: the current folder") && Catch::Contains(fs::weakly_canonical(t.cwd).string()));
}
