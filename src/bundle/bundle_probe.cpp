#include "cudnnctl/bundle/bundle_probe.hpp"

#include <charconv>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

int bundle_load_child(const std::string& dir, std::ostream& out, std::ostream& err) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path_from_utf8(dir), ec)) names.push_back(utf8_of(e.path().filename()));
  const auto os = bundle_os(names);
  if (!os) {
    err << "no cuDNN library in " << dir << "\n";
    return 2;
  }
  const auto main_lib = main_library(cudnn_files_among(names, *os), *os);
  auto lib = platform::load_library(dir + "/" + main_lib);
  if (!lib) {
    err << lib.error().message << "\n";
    return 3;
  }
  for (const auto& sub : cudnn_sub_library_files(names, bundle_cudnn_major({main_lib}, *os), *os))
    if (auto s = platform::load_library(dir + "/" + sub); !s) {
      err << s.error().message << "\n";
      return 4;
    }
  using GetVersion = std::size_t (*)();
  auto* fn = reinterpret_cast<GetVersion>(platform::find_symbol(*lib, "cudnnGetVersion"));
  if (!fn) {
    err << main_lib << " has no cudnnGetVersion\n";
    return 5;
  }
  out << fn() << "\n";
  return 0;
}

Result<unsigned> probe_bundle_load(const std::string& dir) {
  CUDNNCTL_TRY_ASSIGN(auto child, platform::run_child({platform::self_executable(), "__bundle_load", dir}, {}, 120000));
  unsigned v = 0;
  const auto& o = child.out;
  const auto [p, ec] = std::from_chars(o.data(), o.data() + o.size(), v);
  if (child.exit_code != 0 || ec != std::errc() || v == 0) {
    auto why = child.err.empty() ? std::string("no version printed") : child.err;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    if (child.signal) why = fmt::format("killed by signal {}", child.signal);
    if (child.timed_out) why = "timed out";
    return fail(ErrorCode::bundle_refused, fmt::format("the cuDNN in {} does not load: {}", dir, why),
                "a library it needs (cudart, cuBLAS, zlib) is missing beside it or on the search path", dir);
  }
  (void)p;
  return v;
}

} // namespace cudnnctl
