#include "cudnnctl/env/path_list.hpp"

#include <algorithm>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

std::vector<std::string> split_path_list(std::string_view value, PathFlavor flavor) {
  std::vector<std::string> out;
  if (flavor == PathFlavor::posix) {
    for (auto p : split(value, ':')) out.emplace_back(p);
    if (value.empty()) out.clear();
    return out;
  }
  std::string current;
  bool quoted = false;
  for (char c : value) {
    if (c == '"') quoted = !quoted;
    if (c == ';' && !quoted) {
      out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (!value.empty()) out.push_back(current);
  return out;
}

std::string join_path_list(const std::vector<std::string>& entries, PathFlavor flavor) {
  std::string out;
  const char sep = flavor == PathFlavor::windows ? ';' : ':';
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) out += sep;
    out += entries[i];
  }
  return out;
}

std::string expand_windows_vars(std::string_view text, const std::function<std::optional<std::string>(const std::string&)>& lookup) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto open = text.find('%', i);
    if (open == std::string_view::npos) break;
    const auto close = text.find('%', open + 1);
    if (close == std::string_view::npos) break;
    out.append(text.substr(i, open - i));
    const std::string name(text.substr(open + 1, close - open - 1));
    const auto value = lookup && !name.empty() ? lookup(name) : std::nullopt;
    if (value) out += *value;
    else out.append(text.substr(open, close - open + 1));
    i = close + 1;
  }
  out.append(text.substr(std::min(i, text.size())));
  return out;
}

std::string path_key(std::string_view entry, PathFlavor flavor,
                     const std::function<std::optional<std::string>(const std::string&)>& lookup) {
  if (flavor == PathFlavor::posix) {
    std::string s(entry);
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  }
  std::string s;
  for (char c : entry)
    if (c != '"') s += c;
  s = expand_windows_vars(s, lookup);
  std::replace(s.begin(), s.end(), '/', '\\');
  while (s.size() > 3 && s.back() == '\\') s.pop_back();  // keep "C:\"
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  s = first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  return to_lower_ascii(s);
}

PathFix put_first(const std::vector<std::string>& entries, const std::string& folder, PathFlavor flavor,
                  const std::function<std::optional<std::string>(const std::string&)>& lookup) {
  PathFix fix;
  fix.before = entries;
  const auto key = path_key(folder, flavor, lookup);
  fix.after.push_back(folder);
  for (const auto& e : entries) {
    // empty entries go too: Windows ignores them, and the Linux loader reads them as the current folder
    if (path_key(e, flavor, lookup) == key || path_key(e, flavor, lookup).empty()) {
      fix.dropped.push_back(e);
      continue;
    }
    fix.after.push_back(e);
  }
  fix.changed = fix.after != fix.before;
  return fix;
}

std::string diff_lines(const std::vector<std::string>& before, const std::vector<std::string>& after) {
  // longest common subsequence: what stays in order is shown plain, the rest as removed (-) or added (+)
  const std::size_t n = before.size(), m = after.size();
  std::vector<std::vector<std::size_t>> lcs(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = before[i] == after[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::string out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] == after[j]) {
      out += "  " + after[j] + "\n";
      ++i;
      ++j;
    } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out += "+ " + after[j++] + "\n";
    } else {
      out += "- " + before[i++] + "\n";
    }
  }
  return out;
}

} // namespace cudnnctl
