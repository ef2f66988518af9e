#include "cudnnctl/env/windows_mount.hpp"

#include <cctype>
#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> components(std::string_view p) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : p) {
    if (c == '\\' || c == '/') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::optional<char> drive_letter(std::string_view p) {
  if (p.size() >= 2 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':')
    return static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
  return std::nullopt;
}

} // namespace

void WindowsMount::map_drive(char letter, std::string local_root) {
  while (local_root.size() > 1 && local_root.back() == '/') local_root.pop_back();
  m_drives[static_cast<char>(std::toupper(static_cast<unsigned char>(letter)))] = std::move(local_root);
}

std::string resolve_case_insensitive(const std::string& local) {
  std::error_code ec;
  if (fs::exists(local, ec)) return local;
  fs::path out = local.starts_with("/") ? fs::path("/") : fs::path();
  for (const auto& part : components(local)) {
    fs::path next = out / part;
    if (!fs::exists(next, ec) && fs::is_directory(out.empty() ? fs::path(".") : out, ec)) {
      for (const auto& e : fs::directory_iterator(out.empty() ? fs::path(".") : out, ec))
        if (iequals_ascii(utf8_of(e.path().filename()), part)) {
          next = out / e.path().filename();
          break;
        }
    }
    out = next;
  }
  return utf8_of(out);
}

std::optional<std::string> WindowsMount::to_local(std::string_view windows_path) const {
  std::string p(windows_path);
  p.erase(std::remove(p.begin(), p.end(), '"'), p.end());
  const auto letter = drive_letter(p);
  if (!letter) return std::nullopt;
  const auto it = m_drives.find(*letter);
  if (it == m_drives.end()) return std::nullopt;
  std::string local = it->second;
  for (const auto& c : components(std::string_view(p).substr(2))) {
    local.push_back('/');
    local.append(c);
  }
  return resolve_case_insensitive(local);
}

std::string WindowsMount::describe() const {
  std::string out;
  for (const auto& [l, root] : m_drives) out += fmt::format("{}{}: = {}", out.empty() ? "" : ", ", l, root);
  return out;
}

std::optional<std::pair<char, std::string>> WindowsMount::infer_from_wsl_path(std::string_view local) {
  if (local.size() >= 6 && local.starts_with("/mnt/") && std::isalpha(static_cast<unsigned char>(local[5])) &&
      (local.size() == 6 || local[6] == '/'))
    return std::pair{static_cast<char>(std::toupper(static_cast<unsigned char>(local[5]))), std::string(local.substr(0, 6))};
  return std::nullopt;
}

std::optional<std::pair<char, std::string>> WindowsMount::infer_from_match(std::string_view windows_path, std::string_view local) {
  const auto letter = drive_letter(windows_path);
  if (!letter) return std::nullopt;
  const auto w = components(windows_path.substr(2));
  const auto l = components(local);
  if (w.empty() || w.size() > l.size()) return std::nullopt;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!iequals_ascii(w[w.size() - 1 - i], l[l.size() - 1 - i])) return std::nullopt;
  std::string root;
  if (!local.starts_with("/")) root.push_back('.');
  for (std::size_t i = 0; i + w.size() < l.size(); ++i) {
    root.push_back('/');
    root.append(l[i]);
  }
  if (root.empty()) root.push_back('/');
  return std::pair{*letter, root};
}

std::optional<std::pair<char, std::string>> WindowsMount::parse_drive_option(std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 >= text.size()) return std::nullopt;
  auto letter = text.substr(0, eq);
  if (letter.size() == 2 && letter[1] == ':') letter = letter.substr(0, 1);
  if (letter.size() != 1 || !std::isalpha(static_cast<unsigned char>(letter[0]))) return std::nullopt;
  return std::pair{static_cast<char>(std::toupper(static_cast<unsigned char>(letter[0]))), std::string(text.substr(eq + 1))};
}

} // namespace cudnnctl
