#include "cudnnctl/bundle/bundle_probe.hpp"

#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/child/child_channel.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

namespace {

// one "load" step: the library, and why it did not load
bool load_step(ChildChannel& out, const std::string& dir, const std::string& file, void** handle) {
  auto lib = platform::load_library(utf8_of(path_from_utf8(dir) / path_from_utf8(file)));
  out.emit("load", {{"file", file}, {"loaded", lib.has_value()}, {"error", lib ? std::string() : lib.error().message}});
  log::debug("bundle load child: {} {}", file, lib ? "loaded" : "failed: " + lib.error().message);
  if (lib && handle) *handle = *lib;
  return lib.has_value();
}

} // namespace

Result<unsigned> read_bundle_load_steps(const std::string& dir, const ChildSteps& child) {
  std::string why;
  unsigned version = 0;
  bool done = false;
  for (const auto& j : child.steps) {
    const auto step = j.value("step", "");
    if (step == "load" && !j.value("loaded", false) && why.empty()) why = fmt::format("{}: {}", j.value("file", ""), j.value("error", ""));
    else if (step == "error" && why.empty()) why = j.value("message", "");
    else if (step == "version") version = j.value("version", 0u);
    else if (step == "done") done = true;
  }
  if (child.signal) why = fmt::format("killed by signal {}", child.signal);
  else if (child.timed_out) why = "timed out";
  else if (why.empty() && !done) why = child.err.empty() ? std::string("it stopped before it said so") : child.err;
  else if (why.empty() && version == 0) why = "cudnnGetVersion() returned no version";
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
  if (why.empty()) return version;
  return fail(ErrorCode::bundle_refused, fmt::format("the cuDNN in {} does not load: {}", dir, why),
              "a library it needs (cudart, cuBLAS, zlib) is missing beside it or on the search path", dir);
}

int bundle_load_child(const std::string& dir, std::ostream& stream) {
  ChildChannel out(stream);
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path_from_utf8(dir), ec)) names.push_back(utf8_of(e.path().filename()));
  const auto os = bundle_os(names);
  if (!os) {
    out.emit("error", {{"message", fmt::format("no cuDNN library in {}", dir)}});
    out.emit("done");
    return 0;
  }
  const auto main_lib = main_library(cudnn_files_among(names, *os), *os);
  void* main = nullptr;
  bool loaded = load_step(out, dir, main_lib, &main);
  for (const auto& sub : cudnn_sub_library_files(names, bundle_cudnn_major({main_lib}, *os), *os))
    if (loaded) loaded = load_step(out, dir, sub, nullptr);
  if (loaded) {
    using GetVersion = std::size_t (*)();
    if (auto* fn = reinterpret_cast<GetVersion>(platform::find_symbol(main, "cudnnGetVersion"))) out.emit("version", {{"version", fn()}});
    else out.emit("error", {{"message", main_lib + " has no cudnnGetVersion"}});
  }
  out.emit("done");
  return 0;
}

Result<unsigned> probe_bundle_load(const std::string& self_exe, const std::string& dir) {
  log::debug("bundle load child: proving {} loads", dir);
  CUDNNCTL_TRY_ASSIGN(auto child, run_child_steps({self_exe, "__bundle_load", dir}, 120000));
  return read_bundle_load_steps(dir, child);
}

Result<unsigned> probe_bundle_load(const std::string& dir) { return probe_bundle_load(platform::self_executable(), dir); }

} // namespace cudnnctl
