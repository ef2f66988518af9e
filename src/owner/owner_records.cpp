// The package managers' records as text: dpkg's status and lists, pacman's desc and files, pip's RECORD,
// conda-meta JSON, and the Windows installer's folder names. No I/O here (owner_lookup.cpp reads the files,
// bounded); anything that breaks a format is left out.
#include "cudnnctl/owner/owner_records.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/windows_installer.hpp"

namespace cudnnctl {
namespace {

std::string_view trim_ws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Calls f(line) for each line of `text` (without its '\n').
template <class F> void each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    const auto nl = text.find('\n');
    f(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

// A path fit to compare and print: no NUL or other control byte.
bool plain_path(std::string_view p) {
  if (p.empty() || p.size() > 4096) return false;
  for (const char c : p)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

// No "." or ".." component: a path with one names another file than it spells (dpkg writes "/." for the root).
bool no_dot_components(std::string_view p) {
  for (std::size_t at = 0; at <= p.size();) {
    const auto end = std::min(p.find('/', at), p.size());
    const auto part = p.substr(at, end - at);
    if (part == "." || part == "..") return false;
    at = end + 1;
  }
  return true;
}

void finish_stanza(DpkgPackage& cur, bool installed, std::vector<DpkgPackage>& out) {
  if (installed && plain_token(cur.name) && plain_token(cur.version) && (cur.arch.empty() || plain_token(cur.arch)))
    out.push_back(cur);
  cur = {};
}

} // namespace

bool plain_absolute_path(std::string_view p) { return !p.empty() && p.front() == '/' && no_dot_components(p) && plain_path(p); }

bool names_cudnn(std::string_view path) { return to_lower_ascii(base_name(path)).find("cudnn") != std::string::npos; }

bool plain_token(std::string_view s) {
  if (s.empty() || s.size() > 200) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_ascii_digit(c) || c == '.' || c == '_' ||
                    c == '+' || c == '-' || c == '~' || c == ':' || c == '@';
    if (!ok) return false;
  }
  return true;
}

std::vector<DpkgPackage> parse_dpkg_status(std::string_view text) {
  std::vector<DpkgPackage> out;
  DpkgPackage cur;
  bool installed = false;
  each_line(text, [&](std::string_view line) {
    if (trim_ws(line).empty()) {
      finish_stanza(cur, installed, out);
      installed = false;
      return;
    }
    if (line.front() == ' ' || line.front() == '\t') return;  // a continuation line
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return;
    const std::string field = to_lower_ascii(line.substr(0, colon));
    const std::string_view value = trim_ws(line.substr(colon + 1));
    if (field == "package") cur.name = std::string(value);
    else if (field == "version") cur.version = std::string(value);
    else if (field == "architecture") cur.arch = std::string(value);
    else if (field == "status") {
      const auto words = split(value, ' ');
      installed = words.size() == 3 && words[2] == "installed";
      cur.held = !words.empty() && words[0] == "hold";
    }
  });
  finish_stanza(cur, installed, out);
  return out;
}

std::vector<std::string> parse_path_list(std::string_view text) {
  std::vector<std::string> out;
  each_line(text, [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (line.size() > 1 && line.back() == '/') line.remove_suffix(1);
    if (plain_absolute_path(line)) out.emplace_back(line);
  });
  return out;
}

std::optional<PacmanDesc> parse_pacman_desc(std::string_view text) {
  PacmanDesc d;
  std::string* want = nullptr;
  each_line(text, [&](std::string_view line) {
    line = trim_ws(line);
    if (line == "%NAME%") want = &d.name;
    else if (line == "%VERSION%") want = &d.version;
    else if (!line.empty() && line.front() == '%') want = nullptr;
    else if (want && !line.empty() && want->empty()) want->assign(line);
  });
  if (!plain_token(d.name) || !plain_token(d.version)) return std::nullopt;
  return d;
}

std::vector<std::string> parse_pacman_files(std::string_view text) {
  std::vector<std::string> out;
  bool in_files = false;
  each_line(text, [&](std::string_view line) {
    line = trim_ws(line);
    if (!line.empty() && line.front() == '%') {
      in_files = line == "%FILES%";
      return;
    }
    if (!in_files || line.empty() || line.back() == '/' || line.front() == '/' || !no_dot_components(line) || !plain_path(line)) return;
    out.push_back("/" + std::string(line));
  });
  return out;
}

std::vector<std::string> parse_record_paths(std::string_view text) {
  std::vector<std::string> out;
  each_line(text, [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string path;
    if (!line.empty() && line.front() == '"') {
      for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') path += '"', ++i;
        else if (line[i] == '"') break;
        else path += line[i];
      }
    } else {
      path = std::string(line.substr(0, line.find(',')));
    }
    if (plain_path(path)) out.push_back(std::move(path));
  });
  return out;
}

std::optional<CondaRecord> parse_conda_record(std::string_view text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  const auto name = j.find("name");
  const auto version = j.find("version");
  const auto files = j.find("files");
  if (name == j.end() || !name->is_string() || version == j.end() || !version->is_string()) return std::nullopt;
  CondaRecord r{name->get<std::string>(), version->get<std::string>(), {}};
  if (!plain_token(r.name) || !plain_token(r.version)) return std::nullopt;
  if (files != j.end() && files->is_array())
    for (const auto& f : *files)
      if (f.is_string() && plain_path(f.get_ref<const std::string&>())) r.files.push_back(f.get<std::string>());
  return r;
}

std::optional<std::pair<std::string, std::string>> parse_dist_info_name(std::string_view folder) {
  constexpr std::string_view suffix = ".dist-info";
  if (folder.size() <= suffix.size() || folder.substr(folder.size() - suffix.size()) != suffix) return std::nullopt;
  folder.remove_suffix(suffix.size());
  const auto dash = folder.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  std::string name(folder.substr(0, dash));
  std::string version(folder.substr(dash + 1));
  for (auto& c : name)
    if (c == '_') c = '-';
  if (!plain_token(name) || !plain_token(version)) return std::nullopt;
  return std::pair{to_lower_ascii(name), version};
}

std::optional<InstallerPlace> windows_installer_place(std::string_view path) {
  std::string norm(path);
  for (auto& c : norm)
    if (c == '\\') c = '/';
  const std::string lower = to_lower_ascii(norm);
  constexpr std::string_view marker = "/nvidia/cudnn/v";
  const auto at = lower.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const auto rel_start = at + marker.size() - 1;  // the release folder, its 'v' included
  const auto rel_end = lower.find('/', rel_start);
  const auto release = installer_release_folder(std::string_view(norm).substr(rel_start, rel_end == std::string::npos ? std::string::npos : rel_end - rel_start));
  if (!release) return std::nullopt;
  InstallerPlace p;
  p.release = *release;
  p.root = std::string(path.substr(0, rel_end == std::string::npos ? path.size() : rel_end));
  if (rel_end == std::string::npos) return p;
  const auto rest = split(std::string_view(norm).substr(rel_end + 1), '/');
  if (rest.size() >= 2 && (rest[0] == "bin" || rest[0] == "include" || rest[0] == "lib") && installer_cuda_folder(rest[1]))
    p.cuda = std::string(rest[1]);
  return p;
}

} // namespace cudnnctl
