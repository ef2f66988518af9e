// The site folders of the Python interpreters on PATH: pyenv shims resolved by reading pyenv's version
// files, venvs and standard CPython prefixes read from disk, the rest asked once each, in parallel.
#include "cudnnctl/bundle/python_sites.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <regex>
#include <sstream>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {

namespace fs = std::filesystem;

class RealPythonDisk final : public PythonDisk {
public:
  bool exists(const std::string& path) override {
    std::error_code ec;
    return fs::exists(path_from_utf8(path), ec);
  }
  bool is_dir(const std::string& path) override {
    std::error_code ec;
    return fs::is_directory(path_from_utf8(path), ec);
  }
  std::optional<std::string> read_text(const std::string& path) override { return read_text_file(path_from_utf8(path), 1 << 16); }
  std::vector<std::string> list_dir(const std::string& dir) override {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(path_from_utf8(dir), ec), end; !ec && it != end; it.increment(ec)) out.push_back(utf8_of(it->path().filename()));
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string real_path(const std::string& path) override {
    std::error_code ec;
    const auto p = fs::canonical(path_from_utf8(path), ec);
    return ec ? path : utf8_of(p);
  }
};

std::string py_parent(const std::string& path) {
  const auto cut = path.find_last_of("/\\");
  if (cut == std::string::npos) return {};
  return cut == 0 ? std::string("/") : path.substr(0, cut);
}

std::string py_join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return (dir.back() == '/' || dir.back() == '\\') ? dir + name : dir + "/" + name;
}

std::string_view py_trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// The version names of a pyenv version file: blank-separated words, `#` lines left out.
std::vector<std::string> pyenv_version_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const auto t = py_trimmed(line);
    if (t.empty() || t.front() == '#') continue;
    std::istringstream w{std::string(t)};
    for (std::string word; w >> word;) words.push_back(word);
  }
  return words;
}

// pyenv's selected versions, read as pyenv-version-name does; empty when none could be read.
std::vector<std::string> pyenv_selected(const std::string& root, const platform::Environment& env, const std::string& cwd, PythonDisk& disk) {
  if (const auto v = env.get("PYENV_VERSION"); v && !v->empty()) {
    std::vector<std::string> out;
    for (const auto part : split(*v, ':'))
      if (!part.empty()) out.emplace_back(part);
    return out;
  }
  const auto start = env.get("PYENV_DIR").value_or(cwd);
  for (std::string dir = start; !dir.empty();) {
    if (const auto text = disk.read_text(py_join(dir, ".python-version"))) return pyenv_version_words(*text);
    const auto up = py_parent(dir);
    if (up == dir) break;
    dir = up;
  }
  if (const auto text = disk.read_text(py_join(root, "version"))) return pyenv_version_words(*text);
  return {"system"};
}

// `name` on PATH in a folder other than `skip` (pyenv's "system" version).
std::string on_path_past(const std::string& name, const std::string& skip, const platform::Environment& env, PythonDisk& disk) {
  const auto path = env.get("PATH").value_or("");  // split's views point into it
  for (const auto entry : split(path, ':')) {
    std::string dir(entry);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.empty() || dir == skip || disk.real_path(dir) == disk.real_path(skip)) continue;
    const auto candidate = py_join(dir, name);
    if (disk.exists(candidate) && !disk.is_dir(candidate)) return candidate;
  }
  return {};
}

// "3.11" of pyvenv.cfg's version ("3.11.7") or virtualenv's version_info ("3.11.7.final.0").
std::string major_minor(const std::string& version) {
  static const std::regex re(R"(^(\d+)\.(\d+)(\..*)?$)");
  std::smatch m;
  return std::regex_match(version, m, re) ? m[1].str() + "." + m[2].str() : std::string();
}

// The user's site folder (site.getusersitepackages() on POSIX); empty when no home is named.
std::string user_site(const std::string& xy, const platform::Environment& env) {
  auto base = env.get("PYTHONUSERBASE").value_or("");
  if (base.empty()) {
    const auto home = env.get("HOME").value_or("");
    if (home.empty()) return {};
    base = py_join(home, ".local");
  }
  return py_join(base, "lib/python" + xy + "/site-packages");
}

// X.Y of a standard CPython 3 prefix: the executable's name (python3.11), else the one lib/python3.N
// holding os.py; empty when the layout is not that.
std::string prefix_version(const std::string& prefix, const std::string& exe_name, PythonDisk& disk) {
  static const std::regex named(R"(^python(3\.\d+)$)");
  static const std::regex lib(R"(^python(3\.\d+)$)");
  std::smatch m;
  std::string xy;
  if (std::regex_match(exe_name, m, named)) {
    xy = m[1].str();
  } else {
    for (const auto& n : disk.list_dir(py_join(prefix, "lib"))) {
      if (!std::regex_match(n, m, lib) || !disk.exists(py_join(prefix, "lib/" + n + "/os.py"))) continue;
      if (!xy.empty()) return {};  // two versions in one prefix: which one runs is not read here
      xy = m[1].str();
    }
  }
  if (xy.empty() || !disk.exists(py_join(prefix, "lib/python" + xy + "/os.py"))) return {};
  if (disk.exists(py_join(prefix, "lib64/python" + xy))) return {};  // platlibdir lib64: a distribution's build
  return xy;
}

// The folder holding the pyvenv.cfg that makes `exe` a venv's interpreter; empty when none.
std::string venv_of(const std::string& exe, PythonDisk& disk) {
  const auto bin = py_parent(exe);
  for (const auto& dir : {bin, py_parent(bin)})
    if (!dir.empty() && disk.exists(py_join(dir, "pyvenv.cfg"))) return dir;
  return {};
}

std::optional<std::vector<std::string>> base_sites(const std::string& real_exe, const platform::Environment& env, PythonDisk& disk) {
  const auto bin = py_parent(real_exe);
  const auto prefix = py_parent(bin);
  if (prefix.empty() || prefix == "/" || prefix == "/usr" || std::string(base_name(bin)) != "bin") return std::nullopt;
  const auto xy = prefix_version(prefix, std::string(base_name(real_exe)), disk);
  if (xy.empty()) return std::nullopt;
  const auto user = user_site(xy, env);
  if (user.empty()) return std::nullopt;
  return std::vector<std::string>{py_join(prefix, "lib/python" + xy + "/site-packages"), user};
}

std::optional<std::vector<std::string>> venv_sites(const std::string& venv, const std::string& exe, const platform::Environment& env, PythonDisk& disk) {
  const auto cfg_text = disk.read_text(py_join(venv, "pyvenv.cfg"));
  if (!cfg_text) return std::nullopt;
  const auto cfg = parse_pyvenv_cfg(*cfg_text);
  const auto get = [&](const char* k) { const auto it = cfg.find(k); return it == cfg.end() ? std::string() : it->second; };
  auto xy = major_minor(get("version"));
  if (xy.empty()) xy = major_minor(get("version_info"));
  if (xy.empty() || !xy.starts_with("3.")) return std::nullopt;
  const auto user = user_site(xy, env);
  if (user.empty()) return std::nullopt;
  std::vector<std::string> sites{py_join(venv, "lib/python" + xy + "/site-packages")};
  if (to_lower_ascii(get("include-system-site-packages")) == "true") {
    const auto home = get("home");
    if (home.empty()) return std::nullopt;
    auto base = base_sites(disk.real_path(py_join(home, std::string(base_name(exe)))), env, disk);
    if (!base) base = base_sites(disk.real_path(py_join(home, "python" + xy)), env, disk);
    if (!base) return std::nullopt;
    sites.push_back(base->front());
  }
  sites.push_back(user);
  return sites;
}

} // namespace

std::unique_ptr<PythonDisk> make_real_python_disk() { return std::make_unique<RealPythonDisk>(); }

std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text) {
  std::map<std::string, std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const auto key = py_trimmed(std::string_view(line).substr(0, eq));
    if (key.empty() || key.front() == '#') continue;
    out[to_lower_ascii(std::string(key))] = std::string(py_trimmed(std::string_view(line).substr(eq + 1)));
  }
  return out;
}

std::optional<std::string> resolve_pyenv_shim(const std::string& exe, const platform::Environment& env, const std::string& cwd, PythonDisk& disk) {
  const auto shims = py_parent(exe);
  const auto root = py_parent(shims);
  if (std::string(base_name(shims)) != "shims" || root.empty() || !disk.is_dir(py_join(root, "versions"))) return exe;
  const auto text = disk.read_text(exe);
  if (!text || !text->starts_with("#!") || text->find("pyenv") == std::string::npos) return exe;  // no pyenv script
  const auto name = std::string(base_name(exe));
  for (const auto& v : pyenv_selected(root, env, cwd, disk)) {
    if (v == "system") {
      if (auto sys = on_path_past(name, shims, env, disk); !sys.empty()) return sys;
      continue;
    }
    const auto dir = py_join(root, "versions/" + v);
    if (!disk.is_dir(dir)) return std::nullopt;  // pyenv may read a prefix ("3.11") or fail: let it say which
    if (const auto candidate = py_join(dir, "bin/" + name); disk.exists(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> sites_from_layout(const std::string& exe, const platform::Environment& env, PythonDisk& disk) {
  for (const char* var : {"PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE"})
    if (const auto v = env.get(var); v && !v->empty()) return std::nullopt;
  if (to_lower_ascii(exe).ends_with(".exe")) return std::nullopt;  // Windows layouts (Lib, Scripts) are asked
  if (const auto venv = venv_of(exe, disk); !venv.empty()) return venv_sites(venv, exe, env, disk);
  return base_sites(disk.real_path(exe), env, disk);
}

std::vector<PythonTarget> plan_python_sites(const std::vector<std::string>& exes, const platform::Environment& env, const std::string& cwd,
                                            PythonDisk& disk) {
  std::vector<PythonTarget> targets;
  for (const auto& exe : exes) {
    const auto resolved = resolve_pyenv_shim(exe, env, cwd, disk);
    const auto run = resolved.value_or(exe);
    auto identity = resolved ? venv_of(run, disk) : std::string();
    if (identity.empty()) identity = disk.real_path(run);
    const auto same = std::find_if(targets.begin(), targets.end(), [&](const PythonTarget& t) { return t.identity == identity; });
    if (same != targets.end()) {
      same->names.push_back(exe);
      continue;
    }
    PythonTarget t{identity, run, {exe}, std::nullopt};
    if (resolved) t.sites = sites_from_layout(run, env, disk);
    targets.push_back(std::move(t));
  }
  return targets;
}

std::string find_on_path(const std::string& name, const platform::Environment& env, bool windows, PythonDisk& disk) {
  if (name.find_first_of(windows ? "/\\" : "/") != std::string::npos) return name;
  const auto file = windows && !name.ends_with(".exe") ? name + ".exe" : name;
  const auto path = env.get("PATH").value_or("");  // split's views point into it
  for (const auto entry : split(path, windows ? ';' : ':')) {
    std::string dir(entry);
    if (dir.empty()) continue;  // the current folder is not searched for a program to run
    while (dir.size() > 1 && (dir.back() == '/' || dir.back() == '\\')) dir.pop_back();
    const auto candidate = dir + (windows ? "\\" : "/") + file;
    if (disk.exists(candidate) && !disk.is_dir(candidate)) return candidate;
  }
  return {};
}

PythonSitesFound collect_python_sites(const std::vector<PythonTarget>& targets, const AskSites& ask) {
  std::vector<std::future<Result<std::vector<std::string>>>> answers(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (!targets[i].sites) answers[i] = std::async(std::launch::async, ask, targets[i].run);
  PythonSitesFound found;
  const auto add = [&](const std::vector<std::string>& sites) {
    for (const auto& s : sites)
      if (std::find(found.sites.begin(), found.sites.end(), s) == found.sites.end()) found.sites.push_back(s);
  };
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].sites) {
      add(*targets[i].sites);
      continue;
    }
    ++found.asked;
    const auto answer = answers[i].get();
    if (answer) add(*answer);
    else found.not_asked.emplace_back(targets[i].run, answer.error().message);
  }
  return found;
}

} // namespace cudnnctl
