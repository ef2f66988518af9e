#include "cudnnctl/env/ld_conf.hpp"

#include "cudnnctl/env/linux_loader.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

std::string ld_conf_file_name(const std::string& canonical_root) {
  Sha256 h;
  h.update(canonical_root.data(), canonical_root.size());
  std::string name;
  for (char c : fs::path(canonical_root).filename().string())
    name += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  return fmt::format("cudnnctl-{}-{}.conf", name.empty() ? "toolkit" : name, h.finish().substr(0, 12));
}

std::string ld_conf_problem(const std::string& folder) {
  if (folder.empty() || folder.front() != '/') return "ld.so.conf lists absolute folders only";
  for (const auto& [c, why] : std::initializer_list<std::pair<char, const char*>>{
           {'#', "'#' starts a comment in ld.so.conf, so ldconfig would read only the part before it"},
           {'\n', "a line break ends an ld.so.conf entry"},
           {'\r', "a carriage return ends an ld.so.conf entry"},
           {':', "ldconfig splits entries at ':'"},
           {',', "ldconfig splits entries at ','"},
           {'=', "ldconfig reads 'folder=TYPE' as a library type"},
           {'\t', "ldconfig splits entries at tabs"}})
    if (folder.find(c) != std::string::npos) return why;
  if (folder.back() == ' ') return "ldconfig trims blanks at the end of an entry";
  return {};
}

std::vector<std::string> cache_dirs_for(const std::string& text, const std::string& soname) {
  std::vector<std::string> dirs;
  for (const auto& path : ld_cache_paths(text, soname)) {
    auto dir = fs::path(path).parent_path().string();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(std::move(dir));
  }
  return dirs;
}

std::vector<std::string> conf_files_listing(const std::string& system_root, const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  const auto key = path_key(dir, PathFlavor::posix);
  for (const auto& e : fs::directory_iterator(fs::path(system_root) / "etc/ld.so.conf.d", ec)) {
    if (e.path().extension() != ".conf") continue;
    std::istringstream in(read_text_head(e.path(), 1 << 20).value_or(std::string()));
    for (std::string line; std::getline(in, line);) {
      line = line.substr(0, line.find('#'));
      const auto a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t");
      if (a != std::string::npos && path_key(line.substr(a, b - a + 1), PathFlavor::posix) == key) {
        out.push_back(e.path().string());
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
Result<void> write_conf(const LoaderPathPlan& plan) {
  std::error_code ec;
  fs::create_directories(path_from_utf8(plan.ld_conf_path).parent_path(), ec);
  const std::string tmp = plan.ld_conf_path + ".tmp";
  {
    std::ofstream out(path_from_utf8(tmp), std::ios::trunc);
    out << plan.ld_conf_content;
    out.flush();
    if (!out) return fail(ErrorCode::io, fmt::format("cannot write {}", tmp), "check that you are root", tmp);
  }
  fs::rename(path_from_utf8(tmp), path_from_utf8(plan.ld_conf_path), ec);
  if (ec) return fail(ErrorCode::io, fmt::format("cannot write {}: {}", plan.ld_conf_path, ec.message()), "", plan.ld_conf_path);
  return {};
}
} // namespace

std::string conf_d_unread(const std::optional<std::string>& text) {
  if (!text) return "there is no etc/ld.so.conf to read (ldconfig reads its folders from it)";
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word != "include") continue;
    while (words >> word)  // the patterns ldconfig globs (a relative one is taken from /etc)
      if (word == "/etc/ld.so.conf.d/*.conf" || word == "/etc/ld.so.conf.d/*" || word == "ld.so.conf.d/*.conf") return {};
  }
  return "etc/ld.so.conf has no line `include /etc/ld.so.conf.d/*.conf`, so ldconfig would not read a file there: add that line "
         "(as Debian, Fedora and Arch have it), or list the folder in etc/ld.so.conf yourself";
}

std::string conf_d_unread_under(const std::string& system_root) {
  return conf_d_unread(read_text_file(path_from_utf8(system_root) / "etc/ld.so.conf", 1 << 20));
}

Result<std::string> apply_ld_conf(const LoaderPathPlan& plan, const std::string& system_root, const std::string& soname) {
  if (const auto why = ld_conf_problem(plan.ld_conf_entry); !why.empty())
    return fail(ErrorCode::input_invalid, fmt::format("ldconfig cannot list the folder '{}': {}", plan.ld_conf_entry, why),
                "move or link the toolkit to a path without such characters (e.g. /opt/cuda-12), or use LD_LIBRARY_PATH "
                "for this shell; nothing was changed",
                plan.folder);
  if (system_root == "/" && !platform::is_privileged())
    return fail(ErrorCode::io, fmt::format("writing {} needs root", plan.ld_conf_path),
                fmt::format("run '{}', or for this shell only: {}; nothing was changed", plan.apply_command, plan.eval_command),
                plan.ld_conf_path);
  std::string wrote = fmt::format("{} already lists {}", plan.ld_conf_path, plan.ld_conf_entry);
  {
    if (read_text_file(plan.ld_conf_path, 1 << 20) != plan.ld_conf_content) {
      CUDNNCTL_TRY(write_conf(plan));
      wrote = fmt::format("wrote {}", plan.ld_conf_path);
    }
  }
  // CUDNNCTL_LDCONFIG replaces the ldconfig command (packaging and tests); "-r ROOT" when not the real root
  const char* override_cmd = std::getenv("CUDNNCTL_LDCONFIG");
  std::vector<std::string> argv{override_cmd ? override_cmd : "ldconfig"};
  if (system_root != "/") argv.insert(argv.end(), {"-r", system_root});
  if (auto ran = platform::run_capture(argv); !ran)
    return fail(ErrorCode::io, fmt::format("{}, but {} failed: {}", wrote, argv[0], ran.error().message), "run 'sudo ldconfig' by hand");
  if (soname.empty()) return fmt::format("{} and ran {}; the toolkit holds no cuDNN yet, so there is no order to check", wrote, argv[0]);
  argv.push_back("-p");
  auto cache = platform::run_capture(argv);
  if (!cache) return fail(ErrorCode::io, fmt::format("{} and ran {}, but could not read the cache back: {}", wrote, argv[0], cache.error().message),
                          "check the order with 'ldconfig -p | grep libcudnn'");
  const auto dirs = cache_dirs_for(*cache, soname);
  const auto mine = path_key(plan.ld_conf_entry, PathFlavor::posix);
  const auto at = std::find_if(dirs.begin(), dirs.end(), [&](const std::string& d) { return path_key(d, PathFlavor::posix) == mine; });
  if (at == dirs.begin() && at != dirs.end()) return fmt::format("{} and ran {}; the ld.so cache now gives {} from {}", wrote, argv[0], soname, plan.ld_conf_entry);
  if (at == dirs.end())
    return fail(ErrorCode::path_not_effective,
                fmt::format("{} and ran {}, but the ld.so cache does not list {} from {}", wrote, argv[0], soname, plan.ld_conf_entry),
                fmt::format("check that {} holds {} and that ldconfig reads ld.so.conf.d ('include ld.so.conf.d/*.conf' in ld.so.conf)",
                            plan.ld_conf_entry, soname),
                plan.ld_conf_path);
  std::string shadows;
  for (auto it = dirs.begin(); it != at; ++it) {
    const auto files = conf_files_listing(system_root, *it);
    shadows += fmt::format("\n  {} comes first{}", *it,
                           files.empty() ? std::string(" (a default or trusted folder)") : fmt::format(" (listed in {})", fmt::join(files, ", ")));
  }
  return fail(ErrorCode::path_not_effective,
              fmt::format("{} and ran {}, but programs still get another {}: the ld.so cache lists it first{}", wrote, argv[0], soname, shadows),
              "remove that copy or the ld.so.conf.d file that lists it (ldconfig reads the files in name order), then run "
              "the command again; LD_LIBRARY_PATH still works for one shell",
              plan.ld_conf_path);
}

} // namespace cudnnctl
