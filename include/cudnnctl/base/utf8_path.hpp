#pragma once
// Text <-> std::filesystem::path, always in UTF-8. `path(std::string)` and `path::string()` use the
// system's narrow encoding: on Windows with mingw's libstdc++ that reads each byte as one Latin-1
// character (so `C:\我的 cuDNN` names another folder) and throws for names outside Latin-1. Every path
// built from a string (an option, an environment variable, a file's content) goes through these.
#include <filesystem>
#include <string>
#include <string_view>

namespace cudnnctl {

/// The path a UTF-8 string names.
std::filesystem::path path_from_utf8(std::string_view utf8);
/// The path as UTF-8, separators as given.
std::string utf8_of(const std::filesystem::path& p);
/// The folder a UTF-8 path is in, as UTF-8 ("a/b/c" -> "a/b").
std::string parent_of(const std::string& path);
/// `dir` + "/" + `name` as text (no second separator when `dir` ends with '/' or '\\'), on any OS: the key of a
/// file in a listing or snapshot, for folders that may be another machine's.
inline std::string join_path(const std::string& dir, const std::string& name) {
  return !dir.empty() && (dir.back() == '/' || dir.back() == '\\') ? dir + name : dir + "/" + name;
}
/// The path as UTF-8 with the platform's separators (`\` on Windows): for messages, receipts and PATH.
std::string native_utf8(const std::filesystem::path& p);

} // namespace cudnnctl
