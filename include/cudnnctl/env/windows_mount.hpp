#pragma once
// A Windows disk seen from another machine (WSL's /mnt/c, a mounted VM image, a CI artifact): which
// local folder each drive letter is, and Windows paths (C:\Program Files\...) turned into local ones,
// matching names case-insensitively as Windows does.
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

class WindowsMount {
public:
  /// "C" -> "/mnt/c". Letters are case-insensitive.
  void map_drive(char letter, std::string local_root);
  bool empty() const { return m_drives.empty(); }
  /// "C:\Program Files\X" -> "<root of C>/Program Files/X" with each component matched case-insensitively
  /// where the exact name is missing; nullopt when the path has no mapped drive letter.
  std::optional<std::string> to_local(std::string_view windows_path) const;
  /// "C: = /mnt/c, D: = /data/d"
  std::string describe() const;
  const std::map<char, std::string>& drives() const { return m_drives; }

  /// /mnt/c/... (WSL's and many VMs' convention) -> {'C', "/mnt/c"}.
  static std::optional<std::pair<char, std::string>> infer_from_wsl_path(std::string_view local);
  /// A Windows path and the local folder known to be the same place (the toolkit named both ways):
  /// "C:\CUDA\v12.4\bin" and "/x/CUDA/v12.4/bin" -> {'C', "/x"}; nullopt when their tails differ.
  static std::optional<std::pair<char, std::string>> infer_from_match(std::string_view windows_path, std::string_view local);
  /// Parses "C:=/mnt/c" or "C=/mnt/c" (--drive).
  static std::optional<std::pair<char, std::string>> parse_drive_option(std::string_view text);

private:
  std::map<char, std::string> m_drives;  // upper-case letter -> local root
};

/// The local path with each missing component replaced by a case-insensitive match when there is one.
std::string resolve_case_insensitive(const std::string& local);

} // namespace cudnnctl
