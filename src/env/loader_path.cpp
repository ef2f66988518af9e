#include "cudnnctl/env/loader_path.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {
std::string quote(const std::string& v, Shell shell) {
  std::string out;
  for (char c : v) {
    if (c == '\'') out += shell == Shell::bash ? "'\\''" : shell == Shell::fish ? "\\'" : "''";
    else out += c;
  }
  return "'" + out + "'";
}
} // namespace

unsigned toolkit_cudnn_major(const Toolkit& t) {
  std::ifstream in(fs::path(t.root) / t.include_dir / "cudnn_version.h");
  std::stringstream ss;
  ss << in.rdbuf();
  std::smatch m;
  const auto text = ss.str();
  if (std::regex_search(text, m, std::regex(R"(#define\s+CUDNN_MAJOR\s+(\d+))"))) return static_cast<unsigned>(std::stoul(m[1]));
  return 9;
}

LoaderPathPlan plan_loader_path(const Toolkit& t, const std::string& current_value, const std::string& system_root,
                                const platform::Environment& env) {
  LoaderPathPlan p;
  std::error_code ec;
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  if (t.os == Os::windows) {
    p.flavor = PathFlavor::windows;
    p.variable = "PATH";
    std::string dir = t.root + "\\" + (t.dll_dir == "bin/x64" ? "bin\\x64" : "bin");
    std::replace(dir.begin(), dir.end(), '/', '\\');
    p.folder = dir;
    p.github.path_dirs = {p.folder};
    p.github.env = {{"CUDA_PATH", t.root}, {"CUDNN_PATH", t.root}};
  } else {
    p.flavor = PathFlavor::posix;
    p.variable = "LD_LIBRARY_PATH";
    const auto real = fs::weakly_canonical(fs::path(t.root) / t.lib_dir, ec);
    p.folder = ec ? (fs::path(t.root) / t.lib_dir).string() : real.string();
    const auto canonical_root = fs::weakly_canonical(t.root, ec);
    const auto name = (ec ? fs::path(t.root) : canonical_root).filename().string();
    p.ld_conf_path = (fs::path(system_root) / "etc/ld.so.conf.d" / ("cudnnctl-" + name + ".conf")).string();
    p.ld_conf_content = fmt::format("# written by cudnnctl for the CUDA toolkit in {}\n{}\n", t.root, p.folder);
    p.github.path_dirs = {(fs::path(t.root) / "bin").string()};
  }
  p.fix = put_first(split_path_list(current_value, p.flavor), p.folder, p.flavor, lookup);
  if (t.os != Os::windows)
    p.github.env = {{"CUDA_PATH", t.root}, {"CUDNN_PATH", t.root}, {"LD_LIBRARY_PATH", join_path_list(p.fix.after, p.flavor)}};
  return p;
}

std::string shell_lines(const LoaderPathPlan& p, Shell shell) {
  const auto value = join_path_list(p.fix.after, p.flavor);
  switch (shell) {
  case Shell::bash: return fmt::format("export {}={}\n", p.variable, quote(value, shell));
  case Shell::fish: return fmt::format("set -gx {} {}\n", p.variable, quote(value, shell));
  case Shell::pwsh: return fmt::format("$env:{} = {}\n", p.variable, quote(value, shell));
  }
  return {};
}

} // namespace cudnnctl
