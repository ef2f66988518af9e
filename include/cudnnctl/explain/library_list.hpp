#pragma once
// Lists of library names a loader tried, as programs print them: ctranslate2's "Unable to load any of
// {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}", cudarc's "under the names
// ["nvrtc", "nvrtc64", "nvrtc64_12", "nvrtc64_120_0"]" and "searched for library names: ["cuda", "nvcuda"]".
// Every entry is read (its library and the major its name carries), not only the one a reader happens to meet
// first, so the list says which majors the program accepts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

struct ListedLibrary {
  std::string name;  // as listed: "libcudnn_ops.so.9.1", "nvrtc64_120_0", "cuda"
  std::string base;  // the library without prefix, suffix and version: "cudnn_ops", "nvrtc", "cuda"
  int major = -1;    // the major the name carries (9 for .so.9.1, 12 for nvrtc64_120_0), -1: none
};

struct LibraryList {
  std::vector<ListedLibrary> entries;
  std::vector<int> majors;  // the distinct majors the entries carry, in order of first appearance
  std::string said() const;  // "it tried libcudnn_ops for cuDNN 9 only (4 names)"
};

/// The list a line carries, or nullopt when it carries none (a list needs two names or more).
std::optional<LibraryList> library_list_in(std::string_view line);

} // namespace cudnnctl
