#pragma once
// Where this machine's loader would find a library asked for by name (a file a pasted message names): the copy
// it would take, the search step that gives it, and the other copies further down the order. Linux: ld.so's order
// (env/linux_loader: LD_LIBRARY_PATH, the ld.so cache, the default folders; a program's own RPATH/RUNPATH is not
// known from a message and left out). Windows: the standard DLL search order (env/shadow_scan's model) with PATH.
#include <functional>
#include <string>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct LibraryLookup {
  std::string file;                     // the name looked up: libcudnn_cnn_infer.so.8, cudnn_ops64_9.dll
  std::string found;                    // the path the loader would take; empty: on no folder of its order
  std::string via;                      // the step that gives it: "ld.so cache", "LD_LIBRARY_PATH", "PATH", "System32", ...
  std::vector<std::string> other_copies;  // later copies on the order (at most 4), which the first one shadows
  std::string named_dir;                // the folder the message gave for the file, empty when it gave none
  bool named_file_exists = false;       // named_dir + file is on this machine
};

struct LookupPlaces {
  const platform::Environment* env = nullptr;
  std::string ld_cache_text;  // `ldconfig -p` (Linux)
  std::string triplet;        // the Debian multiarch triplet of the default folders (Linux)
  std::string cwd;
  std::function<bool(const std::string&)> exists;  // a regular file (or a link to one) at this path
};

/// Looks `file` up along the order of `os`'s loader; `named_dir` is the folder the message gave (may be empty).
LibraryLookup look_up_library(const std::string& file, const std::string& named_dir, Os os, const LookupPlaces& places);

} // namespace cudnnctl
