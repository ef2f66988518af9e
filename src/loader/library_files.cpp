#include "cudnnctl/loader/library_files.hpp"

#include <algorithm>
#include <filesystem>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

bool is_shared_library_name(const std::string& file_name) {
  const auto at = file_name.find(".so");
  if (at == std::string::npos || at == 0) return false;
  const auto rest = file_name.substr(at + 3);
  return rest.empty() || rest[0] == '.';
}

bool is_dll_name(const std::string& file_name) {
  return file_name.size() > 4 && iequals_ascii(file_name.substr(file_name.size() - 4), ".dll");
}

bool is_library_file_name(const std::string& file_name) { return is_shared_library_name(file_name) || is_dll_name(file_name); }

std::vector<std::string> library_files_in(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(path_from_utf8(folder), ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code lec;
    if (it->is_symlink(lec) || !it->is_regular_file(lec) || !is_library_file_name(utf8_of(it->path().filename()))) continue;
    out.push_back(utf8_of(it->path()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<FolderLibraryCode> read_folder_gpu_code(const std::string& folder) {
  std::vector<FolderLibraryCode> out;
  for (auto& path : library_files_in(folder)) {
    auto code = read_gpu_code_file(path);
    out.push_back({std::move(path), std::move(code)});
  }
  return out;
}

} // namespace cudnnctl
