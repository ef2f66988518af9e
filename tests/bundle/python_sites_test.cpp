#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "../archive/test_archives.hpp"
#include "../cli/run_binary.hpp"
#include "cudnnctl/bundle/python_sites.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;
using Vars = std::map<std::string, std::string>;

namespace {

void write_file(const fs::path& p, const std::string& text, bool executable = false) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  if (executable) fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec, fs::perm_options::replace);
}

void link_to(const fs::path& link, const fs::path& target) {
  fs::create_directories(link.parent_path());
  fs::create_symlink(target, link);
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A CPython 3.11 prefix as its installer lays it out: bin/python3.11, python3 and python linking to it,
// lib/python3.11/os.py.
fs::path make_prefix(const fs::path& prefix) {
  write_file(prefix / "bin" / "python3.11", "#!/bin/sh\necho ran >> " + (prefix / "ran").string() + "\n", true);
  link_to(prefix / "bin" / "python3", "python3.11");
  link_to(prefix / "bin" / "python", "python3.11");
  write_file(prefix / "lib" / "python3.11" / "os.py", "");
  fs::create_directories(prefix / "lib" / "python3.11" / "site-packages");
  return prefix;
}

// A pyenv root: shims/python3 and shims/python (bash scripts naming pyenv), versions/3.11.7 a prefix,
// versions/3.12.1 another, `version` naming 3.11.7.
fs::path make_pyenv(const fs::path& root) {
  for (const char* n : {"python3", "python"})
    write_file(root / "shims" / n, "#!/usr/bin/env bash\nset -e\nexport PYENV_ROOT=\"" + root.string() + "\"\nexec \"" + root.string() +
                                       "/libexec/pyenv\" exec \"${0##*/}\" \"$@\"\n", true);
  make_prefix(root / "versions" / "3.11.7");
  make_prefix(root / "versions" / "3.12.1");
  write_file(root / "version", "# pyenv's global version\n3.11.7\n");
  return root;
}

} // namespace

TEST_CASE("python sites: pyvenv.cfg is read as venv and virtualenv write it", "[python_sites]") {
  const auto cfg = parse_pyvenv_cfg("home = /opt/py/bin\r\nInclude-System-Site-Packages=true\nversion_info = 3.11.7.final.0\n# a = b\nno equals\n");
  CHECK(cfg.at("home") == "/opt/py/bin");
  CHECK(cfg.at("include-system-site-packages") == "true");
  CHECK(cfg.at("version_info") == "3.11.7.final.0");
  CHECK(cfg.size() == 3);
}

TEST_CASE("python sites: a pyenv shim maps to the version pyenv would run, without running pyenv", "[python_sites]") {
  TempDir d;
  const auto root = make_pyenv(d.path() / "pyenv");
  const auto shim = (root / "shims" / "python3").string();
  const auto work = d.path() / "work" / "sub";
  fs::create_directories(work);
  auto disk = make_real_python_disk();
  const platform::MapEnvironment plain(Vars{{"PATH", (root / "shims").string()}});
  CHECK(resolve_pyenv_shim(shim, plain, work.string(), *disk) == (root / "versions/3.11.7/bin/python3").string());  // <root>/version
  write_file(d.path() / "work" / ".python-version", "3.12.1\n");  // a parent folder's .python-version comes first
  CHECK(resolve_pyenv_shim(shim, plain, work.string(), *disk) == (root / "versions/3.12.1/bin/python3").string());
  const platform::MapEnvironment chosen(Vars{{"PYENV_VERSION", "3.11.7:3.12.1"}});
  CHECK(resolve_pyenv_shim(shim, chosen, work.string(), *disk) == (root / "versions/3.11.7/bin/python3").string());
  const platform::MapEnvironment missing(Vars{{"PYENV_VERSION", "3.11"}});  // a prefix pyenv may read: pyenv must say
  CHECK_FALSE(resolve_pyenv_shim(shim, missing, work.string(), *disk).has_value());
  const auto system_bin = d.path() / "usr" / "bin";
  write_file(system_bin / "python3", "#!/bin/sh\n", true);
  const platform::MapEnvironment system(Vars{{"PYENV_VERSION", "system"}, {"PATH", (root / "shims").string() + ":" + system_bin.string()}});
  CHECK(resolve_pyenv_shim(shim, system, work.string(), *disk) == (system_bin / "python3").string());
  // not a shim: a file in a shims folder of no pyenv root, or an interpreter itself
  write_file(d.path() / "other" / "shims" / "python3", "#!/bin/sh\n", true);
  CHECK(resolve_pyenv_shim((d.path() / "other/shims/python3").string(), plain, work.string(), *disk) == (d.path() / "other/shims/python3").string());
  CHECK(resolve_pyenv_shim((system_bin / "python3").string(), plain, work.string(), *disk) == (system_bin / "python3").string());
}

TEST_CASE("python sites: a standard prefix and a venv are read from disk, other layouts must be asked", "[python_sites]") {
  TempDir d;
  const auto prefix = make_prefix(d.path() / "opt" / "py");
  auto disk = make_real_python_disk();
  const platform::MapEnvironment env(Vars{{"HOME", "/home/u"}});
  const auto user = std::string("/home/u/.local/lib/python3.11/site-packages");
  const auto base_site = (fs::canonical(prefix) / "lib/python3.11/site-packages").string();
  CHECK(sites_from_layout((prefix / "bin/python").string(), env, *disk) == std::vector<std::string>{base_site, user});
  const platform::MapEnvironment userbase(Vars{{"HOME", "/home/u"}, {"PYTHONUSERBASE", "/ub"}});
  CHECK(sites_from_layout((prefix / "bin/python3").string(), userbase, *disk) ==
        std::vector<std::string>{base_site, "/ub/lib/python3.11/site-packages"});
  CHECK_FALSE(sites_from_layout((prefix / "bin/python3").string(), platform::MapEnvironment(Vars{{"HOME", "/h"}, {"PYTHONHOME", "/x"}}), *disk));
  CHECK_FALSE(sites_from_layout((prefix / "bin/python3").string(), platform::MapEnvironment(Vars{}), *disk));  // no home: no user site to name

  const auto venv = d.path() / "venv";
  link_to(venv / "bin" / "python3", prefix / "bin" / "python3");
  write_file(venv / "pyvenv.cfg", "home = " + (prefix / "bin").string() + "\ninclude-system-site-packages = false\nversion = 3.11.7\n");
  const auto venv_site = (venv / "lib/python3.11/site-packages").string();
  CHECK(sites_from_layout((venv / "bin/python3").string(), env, *disk) == std::vector<std::string>{venv_site, user});
  write_file(venv / "pyvenv.cfg", "home = " + (prefix / "bin").string() + "\ninclude-system-site-packages = true\nversion = 3.11.7\n");
  CHECK(sites_from_layout((venv / "bin/python3").string(), env, *disk) == std::vector<std::string>{venv_site, base_site, user});
  write_file(venv / "pyvenv.cfg", "home = /nowhere\nversion_info = 2.7.18.final.0\n");  // Python 2's site differs
  CHECK_FALSE(sites_from_layout((venv / "bin/python3").string(), env, *disk));

  // an interpreter outside bin/, two versions in one prefix, a prefix with lib64/pythonX.Y: asked
  write_file(d.path() / "loose" / "python3", "#!/bin/sh\n", true);
  CHECK_FALSE(sites_from_layout((d.path() / "loose/python3").string(), env, *disk));
  const auto two = make_prefix(d.path() / "two");
  write_file(two / "lib" / "python3.12" / "os.py", "");
  CHECK(sites_from_layout((two / "bin/python3.11").string(), env, *disk).has_value());  // its name says which
  CHECK(sites_from_layout((two / "bin/python3").string(), env, *disk).has_value());  // its link names python3.11
  fs::create_directories(two / "lib64" / "python3.11");
  CHECK_FALSE(sites_from_layout((two / "bin/python3").string(), env, *disk));
}

TEST_CASE("python sites: python3 and python reaching one interpreter are planned once, an unknown one asked once", "[python_sites]") {
  TempDir d;
  const auto root = make_pyenv(d.path() / "pyenv");
  auto disk = make_real_python_disk();
  const platform::MapEnvironment env(Vars{{"HOME", "/home/u"}, {"PATH", (root / "shims").string()}});
  auto targets = plan_python_sites({(root / "shims/python3").string(), (root / "shims/python").string()}, env, d.str(), *disk);
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].names.size() == 2);
  CHECK(targets[0].identity == fs::canonical(root / "versions/3.11.7/bin/python3.11").string());
  REQUIRE(targets[0].sites.has_value());
  CHECK(targets[0].sites->front() == (fs::canonical(root / "versions/3.11.7") / "lib/python3.11/site-packages").string());

  // a wrapper script known by two names: its layout says nothing, so it is asked, once
  write_file(d.path() / "tools" / "real-python", "#!/bin/sh\n", true);
  link_to(d.path() / "bin" / "python3", d.path() / "tools" / "real-python");
  link_to(d.path() / "bin" / "python", d.path() / "tools" / "real-python");
  targets = plan_python_sites({(d.path() / "bin/python3").string(), (d.path() / "bin/python").string(), (root / "shims/python3").string()}, env,
                              d.str(), *disk);
  REQUIRE(targets.size() == 2);
  CHECK_FALSE(targets[0].sites.has_value());
  std::atomic<int> asked{0};
  const auto found = collect_python_sites(targets, [&](const std::string& exe) -> Result<std::vector<std::string>> {
    ++asked;
    CHECK(exe == (d.path() / "bin/python3").string());
    return std::vector<std::string>{"/asked/site-packages", "/home/u/.local/lib/python3.11/site-packages"};
  });
  CHECK(asked == 1);
  CHECK(found.asked == 1);
  CHECK(found.not_asked.empty());
  CHECK(found.sites.size() == 3);  // the user site both name is kept once
  CHECK(found.sites[0] == "/asked/site-packages");
  const auto failed = collect_python_sites(targets, [](const std::string&) -> Result<std::vector<std::string>> { return fail(ErrorCode::io, "exited 1"); });
  REQUIRE(failed.not_asked.size() == 1);
  CHECK(failed.not_asked[0].second == "exited 1");
  CHECK(failed.sites.size() == 2);
}

TEST_CASE("python sites: bundle list reads a venv's folders without running its interpreter and asks another once", "[python_sites]") {
  TempDir d;
  const auto marker = d.path() / "ran";
  const auto prefix = make_prefix(d.path() / "opt" / "py");
  const auto venv = d.path() / "venv";
  for (const char* n : {"python3", "python"}) write_file(venv / "bin" / n, "#!/bin/sh\necho " + std::string(n) + " >> " + marker.string() + "\n", true);
  write_file(venv / "pyvenv.cfg", "home = " + (prefix / "bin").string() + "\nversion = 3.11.7\n");
  // a bundle in the venv's site-packages: nvidia/cudnn/lib with a cuDNN library
  write_file(venv / "lib/python3.11/site-packages/nvidia/cudnn/lib/libcudnn.so.9", "not an ELF");
  const auto run = [&](const std::string& path) {
    const std::string cmd = "/usr/bin/env -i HOME=" + testing::shell_quote(d.str()) + " XDG_STATE_HOME=" + testing::shell_quote((d.path() / "state").string()) +
                            " VIRTUAL_ENV=" + testing::shell_quote(venv.string()) + " PATH=" + testing::shell_quote(path) + " " +
                            testing::shell_quote(CUDNNCTL_BINARY) + " bundle list --json 2>&1 </dev/null";
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    ::pclose(p);
    return out;
  };
  const auto out = run((venv / "bin").string());
  CHECK_FALSE(fs::exists(marker));
  CHECK(out.find((venv / "lib/python3.11/site-packages/nvidia/cudnn/lib").string()) != std::string::npos);
  CHECK(out.find("could not ask") == std::string::npos);

  // python3 and python on PATH are one wrapper script: it is run once
  const auto wrapper = d.path() / "tools" / "py-wrapper";
  write_file(wrapper, "#!/bin/sh\necho asked >> " + marker.string() + "\necho " + (d.path() / "elsewhere").string() + "\n", true);
  link_to(d.path() / "wbin" / "python3", wrapper);
  link_to(d.path() / "wbin" / "python", wrapper);
  run((d.path() / "wbin").string());
  CHECK(read_all(marker) == "asked\n");
}
