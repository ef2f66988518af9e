// Kubernetes' and NFD's label rules, checked before doctor --nfd writes a line.
#include "cudnnctl/doctor/k8s_labels.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_ascii_digit(c); }
bool name_char(char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; }

constexpr std::size_t k_name_max = 63, k_prefix_max = 253;

// The pattern names and values share: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?
std::optional<std::string> name_pattern_problem(std::string_view s, std::string_view what) {
  if (s.size() > k_name_max) return fmt::format("the {} '{}' has {} characters (at most {})", what, s, s.size(), k_name_max);
  for (char c : s)
    if (!name_char(c)) return fmt::format("the {} '{}' has a character outside [-A-Za-z0-9_.]", what, terminal_safe(s));
  if (!alnum(s.front()) || !alnum(s.back())) return fmt::format("the {} '{}' must start and end with a letter or digit", what, s);
  return std::nullopt;
}

// A DNS-1123 subdomain: lower-case labels of [a-z0-9-], alphanumeric at both ends, joined by dots.
std::optional<std::string> prefix_problem(std::string_view p) {
  if (p.empty()) return std::string("the key has no namespace (NFD refuses unprefixed keys)");
  if (p.size() > k_prefix_max) return fmt::format("the namespace has {} characters (at most {})", p.size(), k_prefix_max);
  for (auto part : split(p, '.')) {
    const bool ok = !part.empty() && part.size() <= 63 && (is_ascii_digit(part.front()) || (part.front() >= 'a' && part.front() <= 'z')) &&
                    (is_ascii_digit(part.back()) || (part.back() >= 'a' && part.back() <= 'z'));
    if (!ok) return fmt::format("the namespace '{}' is not a lower-case DNS subdomain", terminal_safe(p));
    for (char c : part)
      if (!(is_ascii_digit(c) || (c >= 'a' && c <= 'z') || c == '-'))
        return fmt::format("the namespace '{}' is not a lower-case DNS subdomain", terminal_safe(p));
  }
  const auto under = [&](std::string_view domain) { return p == domain || (p.size() > domain.size() && p.ends_with(domain) && p[p.size() - domain.size() - 1] == '.'); };
  if (under("kubernetes.io") && !under("feature.node.kubernetes.io") && !under("profile.node.kubernetes.io"))
    return fmt::format("the namespace '{}' is reserved for Kubernetes (NFD denies it)", p);
  return std::nullopt;
}

} // namespace

std::optional<std::string> nfd_label_key_problem(std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return prefix_problem({});
  if (key.find('/', slash + 1) != std::string_view::npos) return fmt::format("the key '{}' has more than one '/'", terminal_safe(key));
  if (auto p = prefix_problem(key.substr(0, slash))) return p;
  const auto name = key.substr(slash + 1);
  if (name.empty()) return fmt::format("the key '{}' has an empty name", key);
  return name_pattern_problem(name, "name");
}

std::optional<std::string> label_value_problem(std::string_view value) {
  if (value.empty()) return std::nullopt;
  return name_pattern_problem(value, "value");
}

std::optional<std::string> to_label_value(std::string_view text) {
  std::string out;
  for (char c : text) out += name_char(c) ? c : '-';
  const auto first = out.find_first_not_of("-_.");
  if (first == std::string::npos) return text.empty() ? std::optional<std::string>("") : std::nullopt;
  out = out.substr(first, out.find_last_not_of("-_.") - first + 1);
  if (out.size() > k_name_max) return std::nullopt;
  return out;
}

} // namespace cudnnctl
