#pragma once
// Lines of a loader trace users paste: glibc's LD_DEBUG=libs ("find library=libcudnn.so.9 [0]; searching",
// "search path=/a:/b  (LD_LIBRARY_PATH)", "trying file=/a/libcudnn.so.9", "calling init: /a/libcudnn.so.9") and
// Windows' Process Monitor (a CreateFile/Load Image row of a DLL with its result: SUCCESS, NAME NOT FOUND, PATH NOT
// FOUND), as text or as its CSV export. One line decodes to one event.
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

enum class TraceEvent {
  find,         // LD_DEBUG: the loader starts looking for a library by name
  search_path,  // LD_DEBUG: the folders it will try, and where they come from (`via`)
  trying,       // LD_DEBUG: one candidate file
  loaded,       // LD_DEBUG "calling init:" / Process Monitor "Load Image" or a CreateFile SUCCESS: this file is used
  not_found,    // Process Monitor: NAME NOT FOUND / PATH NOT FOUND for this file
};

struct LoaderTraceLine {
  TraceEvent event = TraceEvent::find;
  std::string library;  // the file name asked for or tried ("libcudnn.so.9", "cudnn_ops64_9.dll")
  std::string path;     // the full path (trying, loaded, not_found) or the folder list (search_path)
  std::string via;      // search_path: "LD_LIBRARY_PATH", "RUNPATH from file /x/y.so", "system search path"
  bool windows = false; // a Process Monitor line
};

std::optional<LoaderTraceLine> loader_trace_line_in(std::string_view line);

} // namespace cudnnctl
