#pragma once
// A pure model of search-path lists (PATH, LD_LIBRARY_PATH): split and join with the platform's
// separator, compare entries as that platform's loader does (Windows: case- and slash-insensitive,
// quotes and trailing separators ignored, %VAR% references compared after expansion but kept as written),
// and the fix that puts one folder first, drops its duplicates and keeps everything else in order.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

enum class PathFlavor { windows, posix };

/// Splits a list value. Windows: ';' outside double quotes; POSIX: ':'. Empty entries are kept.
std::vector<std::string> split_path_list(std::string_view value, PathFlavor flavor);
std::string join_path_list(const std::vector<std::string>& entries, PathFlavor flavor);

/// Expands %NAME% (Windows) from `lookup`; unknown names stay as written.
std::string expand_windows_vars(std::string_view text, const std::function<std::optional<std::string>(const std::string&)>& lookup);

/// The form two entries are compared in: Windows lower-case, '\', no quotes, no trailing '\', %VAR%
/// expanded; POSIX without trailing '/'.
std::string path_key(std::string_view entry, PathFlavor flavor,
                     const std::function<std::optional<std::string>(const std::string&)>& lookup = {});

struct PathFix {
  std::vector<std::string> before;
  std::vector<std::string> after;
  bool changed = false;
  std::vector<std::string> dropped;  // duplicates of the folder, and empty entries (POSIX: the current folder)
};

/// Puts `folder` first, drops every other spelling of it, keeps the rest in its order.
PathFix put_first(const std::vector<std::string>& entries, const std::string& folder, PathFlavor flavor,
                  const std::function<std::optional<std::string>(const std::string&)>& lookup = {});

/// Lines "- old" / "+ new" / "  same" for showing a change before it is written.
std::string diff_lines(const std::vector<std::string>& before, const std::vector<std::string>& after);

/// Windows caps one environment variable at 32767 characters; longer values cannot be set.
constexpr std::size_t k_windows_env_max = 32767;

} // namespace cudnnctl
