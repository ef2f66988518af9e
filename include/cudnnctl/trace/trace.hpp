#pragma once
// `cudnnctl trace`: what a program really loaded. The events come from the platform's load trace
// (platform/load_trace.hpp); this turns them into a report: every cuDNN, cuBLAS(Lt), NVRTC, cudart and driver
// library in load order, how the loader found it, its version and the other copies it shadowed, and the
// faults, each named by a doctor signature. Pure: files are read through the two seams.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

struct TraceEvent {
  char kind = 0;  // 'P' process, 'S' search step, 'O' object opened
  long pid = 0;
  std::string a, b, c;  // P: ppid, program; S: how, name or candidate path, requester; O: path
};

/// Parses the event lines; malformed lines are skipped.
std::vector<TraceEvent> parse_trace_events(std::string_view text);

enum class LibFamily { cudnn, cudnn_sub, cublas, cublaslt, nvrtc, cudart, driver, other };
std::string_view to_string(LibFamily f);

struct LibraryKind {
  LibFamily family = LibFamily::other;
  std::string stem;    // "libcudnn_graph", "cudnn_graph64" ...
  unsigned major = 0;  // the SONAME/DLL number: cuDNN's major for cuDNN, CUDA's for the others, 0 unknown
};
/// Classifies a file name (libcudnn_ops.so.9, libcublasLt.so.12, cudnn64_9.dll, nvrtc64_120_0.dll ...).
LibraryKind classify_library(std::string_view file_name);

struct LibraryFacts {
  std::string version;         // "9.19.0"; empty: unknown
  std::string version_source;  // "file name", "version resource", "wheel metadata", "cudnn_version.h", "SONAME"
  std::string soname;
  bool installed_by_cudnnctl = false;
  std::string receipt;         // the receipt that lists it
  // a cuDNN library in a framework's bundle folder (the bundle module's owner: RECORD or conda-meta)
  std::string bundle_owner;    // "torch 2.5.1"; empty: not in a bundle
  std::string bundle_dir;      // the bundle's folder
  std::string bundle_where;    // that folder from its site folder's name on: "site-packages/torch/lib"
  Owner owner;                 // a cuDNN library's owner (dpkg, rpm, pacman, conda, pip, cudnnctl, ...: docs/owners.md)
};

/// "torch 2.5.1 (bundled copy, site-packages/torch/lib)"; empty when the library is in no bundle.
std::string bundle_text(const LibraryFacts& f);

struct OtherCopy {
  std::string path;
  std::string version;
  std::string relation;  // "later in the search order (LD_LIBRARY_PATH)", "not on the search path"
  bool installed_by_cudnnctl = false;
};

struct LoadedLibrary {
  std::size_t order = 0;  // 1-based, over the whole run
  long pid = 0;
  std::string program;
  std::string path;
  std::string name;       // file name
  LibraryKind kind;
  std::string asked_as;   // the name the program asked for
  std::string step;       // LD_LIBRARY_PATH, RUNPATH, ld.so cache, default folder, path given by the program, ...
  std::string requested_by;
  LibraryFacts facts;
  std::vector<OtherCopy> others;
};

struct MissingLibrary {
  long pid = 0;
  std::string name;
  std::string requested_by;
  std::vector<std::string> tried;  // folders tried, in order
};

struct TraceFault {
  std::string signature;  // doctor signature id
  long pid = 0;
  std::string detail;
};

struct TraceProcess {
  long pid = 0, ppid = 0;
  std::string program;
};

struct TraceReport {
  std::vector<TraceProcess> processes;  // those that loaded or looked for a traced library
  std::vector<LoadedLibrary> loaded;
  std::vector<MissingLibrary> missing;
  std::vector<TraceFault> faults;
};

struct TraceSeams {
  std::function<LibraryFacts(const std::string& path)> describe;
  /// Other copies of the file name on this machine, for a library found at `path` and asked for by `requester`.
  std::function<std::vector<OtherCopy>(const std::string& path, const std::string& requester)> other_copies;
  /// Whether a file is at `path` now. A request no load answered whose file is in a folder the loader tried was
  /// a probe (dlopen with RTLD_NOLOAD: "is it loaded already?"), not a missing library. Unset: never.
  std::function<bool(const std::string& path)> file_exists;
};

/// `want_cudnn`: "9.8" or "9.8.0" (the cuDNN the program was built with), empty when not given.
TraceReport build_trace_report(const std::vector<TraceEvent>& events, const TraceSeams& seams, const std::string& want_cudnn = {});

} // namespace cudnnctl
