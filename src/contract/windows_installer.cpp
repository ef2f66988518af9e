// NVIDIA's Windows cuDNN installer's folder names, and which CUDA folder fits a toolkit.
#include "cudnnctl/contract/windows_installer.hpp"

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

// "12.4" -> {12, 4}; nullopt unless two runs of at most 3 digits joined by one dot.
std::optional<std::pair<unsigned, unsigned>> major_minor(std::string_view s) {
  const auto parts = split(s, '.');
  if (parts.size() != 2) return std::nullopt;
  for (const auto& p : parts)
    if (p.empty() || p.size() > 3 || !all_digits(p)) return std::nullopt;
  return std::pair{parse_uint_or(parts[0], 0), parse_uint_or(parts[1], 0)};
}

}  // namespace

std::optional<std::string> installer_release_folder(std::string_view name) {
  if (name.size() < 2 || (name.front() != 'v' && name.front() != 'V')) return std::nullopt;
  name.remove_prefix(1);
  if (!major_minor(name)) return std::nullopt;
  return std::string(name);
}

bool installer_cuda_folder(std::string_view name) { return major_minor(name).has_value(); }

std::optional<std::size_t> fitting_cuda_folder(const std::vector<std::string>& cuda_folders, std::string_view toolkit_version) {
  const auto parts = split(toolkit_version, '.');
  if (parts.size() < 2) return std::nullopt;
  const auto toolkit = major_minor(std::string(parts[0]) + "." + std::string(parts[1]));
  if (!toolkit) return std::nullopt;
  std::optional<std::size_t> exact, older, newer;
  for (std::size_t i = 0; i < cuda_folders.size(); ++i) {
    const auto c = major_minor(cuda_folders[i]);
    if (!c || c->first != toolkit->first) continue;
    if (c->second == toolkit->second && !exact)
      exact = i;
    else if (c->second < toolkit->second && (!older || major_minor(cuda_folders[*older])->second < c->second))
      older = i;
    else if (c->second > toolkit->second && (!newer || major_minor(cuda_folders[*newer])->second > c->second))
      newer = i;
  }
  if (exact) return exact;
  if (older) return older;
  return newer;
}

}  // namespace cudnnctl
