#include "cudnnctl/explain/verdict.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool verdict_names(const std::string& lower, std::string_view piece) { return lower.find(piece) != std::string::npos; }

// The file a not-found or bad-image error is about: the last library the line names that is not a framework's own
// ("Could not load library A. Error: B: cannot open ..." is about B), and the one that asked for it, if another.
const LibraryMention* missing_library(const LinePieces& p) {
  for (auto it = p.libraries.rbegin(); it != p.libraries.rend(); ++it)
    if (it->family != LibraryFamily::framework && it->family != LibraryFamily::other) return &*it;
  return nullptr;
}

const LibraryMention* cudnn_opener(const LinePieces& p, const LibraryMention* missing) {
  for (const auto& l : p.libraries)
    if (&l != missing && l.family == LibraryFamily::cudnn) return &l;
  return nullptr;
}

Verdict cudnn_not_found(const LinePieces& p, const LibraryMention& lib) {
  const auto where = lib.os == Os::windows ? "beside cudnn64_" + std::to_string(lib.major) + ".dll or on the DLL search path (PATH)"
                                           : "beside libcudnn.so." + std::to_string(lib.major) + " or on the loader path (LD_LIBRARY_PATH, ldconfig)";
  if (!lib.cudnn)
    return {"framework.cudnn-not-found", {"files.cudnn", "loader.needed"},
            fmt::format("it looks for {} (no major in the name); not known: which cuDNN major it was built for", lib.file), &lib};
  if (lib.cudnn->main() || lib.cudnn->cudnn8_only() || lib.major < 8)
    return {"loader.cudnn-major", {"files.complete", p.windows ? "loader.needed.windows" : "loader.needed"},
            fmt::format("the program was built for cuDNN {}: it asks for {} ({}){}", lib.major, lib.file, lib.described(),
                        lib.cudnn->cudnn8_only() ? "; cuDNN 9 has no such file, so installing 9 does not help" : ""),
            &lib};
  return {"files.complete", {"loader.sublibrary.elsewhere", p.windows ? "loader.needed.windows" : "loader.needed"},
          fmt::format("{} ({}) is not found: it must sit {}", lib.file, lib.described(), where), &lib};
}

Verdict not_found_verdict(const LinePieces& p, const LibraryMention& lib) {
  if (lib.family == LibraryFamily::cudnn) return cudnn_not_found(p, lib);
  if (lib.cuda_library()) {
    const auto cuda = lib.major ? fmt::format("CUDA {}", lib.major) : std::string("its CUDA release");
    const auto from = lib.major >= 11 ? fmt::format(" or the nvidia-*-cu{} wheels", lib.major) : std::string();
    if (lib.os == Os::windows && lib.major >= 13)
      return {"toolkit.cuda13-bin-x64", {"loader.cuda-runtime"},
              fmt::format("{} ({}) is not found: CUDA 13 keeps its DLLs in bin\\x64, not bin", lib.file, lib.described()), &lib};
    if (const auto* opener = cudnn_opener(p, &lib))
      return {"loader.runtime_deps", {"loader.cuda-runtime", "loader.cuda-majors"},
              fmt::format("{} ({}) opens {} ({}) at run time and cannot find it; it comes with the {} toolkit{}", opener->file,
                          opener->described(), lib.file, lib.described(), cuda, from),
              &lib};
    return {"loader.cuda-runtime", {"loader.cuda-majors"},
            fmt::format("{} cannot be found ({}); it comes with the {} toolkit{}, not with cuDNN", lib.described(), lib.file, cuda, from), &lib};
  }
  if (lib.family == LibraryFamily::driver)
    return {lib.os == Os::windows ? "driver.none.windows" : "driver.none", {"driver.wsl.copies"},
            fmt::format("{} ({}) is not found: no NVIDIA driver is installed or visible here", lib.file, lib.described()), &lib};
  if (lib.family == LibraryFamily::zlibwapi)
    return {"files.dlls", {"loader.needed.windows"}, "zlibwapi.dll is not found: cuDNN 8 on Windows needs it beside its DLLs or on PATH", &lib};
  return {"loader.needed", {}, fmt::format("{} is not found", lib.file), &lib};
}

bool cuda_symbol(std::string_view symbol) {
  const auto s = to_lower_ascii(symbol);
  return s.starts_with("nvrtc") || s.starts_with("cublas") || s.starts_with("cuda") || s.starts_with("cufft") || s.starts_with("curand");
}

std::optional<Verdict> symbol_verdict(const LinePieces& p) {
  const auto& e = *p.loader;
  const auto failing = library_mention_of(base_name(e.failing_file));
  const auto owner = library_mention_of(e.symbol_owner);
  const bool cudnn_symbol = to_lower_ascii(e.symbol).find("cudnn") != std::string::npos || (owner && owner->family == LibraryFamily::cudnn);
  const auto symbol_text = e.symbol.empty() ? std::string("a function") : e.symbol;
  if (failing && failing->family == LibraryFamily::cudnn && cudnn_symbol)
    return Verdict{"files.versions.mixed", {"loader.sublibrary.elsewhere", "loader.versions.mixed"},
            fmt::format("{} ({}) needs {} from {}, and the copy loaded does not define it: cuDNN sub-libraries of two releases are mixed",
                        e.failing_file, failing->described(), symbol_text, e.symbol_owner.empty() ? "another cuDNN library" : e.symbol_owner)};
  if ((failing && failing->cuda_library()) || (owner && owner->cuda_library()) || cuda_symbol(e.symbol))
    return Verdict{"loader.cuda-majors", {"loader.runtime_deps", "loader.cuda-runtime"},
            fmt::format("{} lacks {}: a CUDA library of another (older) release is found before the one needed{}",
                        e.failing_file.empty() ? "a CUDA library" : e.failing_file, symbol_text,
                        failing && failing->path.empty() ? "" : "; check the folder it was loaded from")};
  if (failing && failing->family == LibraryFamily::framework && cudnn_symbol)
    return Verdict{"framework.cudnn-older", {"files.search_path", "files.versions.mixed"},
            fmt::format("{} needs {}, which the cuDNN loaded does not have: an older cuDNN than the framework was built with is found first",
                        e.failing_file, symbol_text)};
  if (cudnn_symbol)
    return Verdict{"loader.sublibrary.elsewhere", {"files.versions.mixed"}, fmt::format("the symbol missing: {}", symbol_text)};
  for (const auto& l : p.libraries)
    if (l.family == LibraryFamily::cudnn && l.cudnn && !l.cudnn->main())
      return Verdict{"files.versions.mixed", {"loader.sublibrary.elsewhere"},
              fmt::format("{} ({}) does not find a function it imports (Windows error 127): its sub-libraries are of two releases", l.file,
                          l.described())};
  if (e.symbol.empty()) return std::nullopt;  // "error 127" alone: the hand-written patterns know the wrappers that say it
  return Verdict{"loader.needed", {"loader.versions.mixed"},
                 fmt::format("the symbol missing: {}; not known: which library should define it", symbol_text), nullptr};
}

std::optional<Verdict> loader_verdict(const LinePieces& p) {
  const auto& e = *p.loader;
  const auto* lib = missing_library(p);
  switch (e.kind) {
  case LoaderErrorKind::paging_file: return Verdict{"loader.paging-file", {}, "", nullptr};
  case LoaderErrorKind::glibc_version: return Verdict{"loader.glibc", {}, "", nullptr};
  case LoaderErrorKind::invalid_handle:
    if (lib) return not_found_verdict(p, *lib);
    return Verdict{"loader.load.aborted", {"files.complete"},
                   fmt::format("cuDNN wanted {} from a sub-library it could not open (an earlier line names it)", e.symbol), nullptr};
  case LoaderErrorKind::undefined_symbol: return symbol_verdict(p);
  case LoaderErrorKind::wrong_class:
    if (p.windows) return Verdict{"files.dlls.bad-image", {"files.dlls", "files.receipt"}, lib ? "the DLL named: " + lib->file : "", lib};
    return Verdict{"loader.needed", {"driver.none"},
                   fmt::format("the copy of {} found first is built for another architecture (32-bit or another CPU)", lib ? lib->file : "the library"),
                   lib};
  case LoaderErrorKind::dependency_missing:
    return Verdict{"loader.needed.windows", {"files.dlls", "loader.needed.vcredist"},
                   lib ? fmt::format("{} is there; a DLL it imports is not found (zlibwapi.dll for cuDNN 8, cuBLAS, the VC++ runtime)", lib->file)
                       : std::string(),
                   lib};
  case LoaderErrorKind::not_found:
    if (lib) return not_found_verdict(p, *lib);
    return std::nullopt;
  }
  return std::nullopt;
}

Verdict version_verdict(const VersionStatement& v) {
  auto detail = v.said();
  if (v.product == VersionProduct::cudnn && v.loaded.major != v.built.major)
    detail += fmt::format("; the majors differ: install cuDNN {} beside the {} (or the program's build for cuDNN {})", v.built.major,
                          v.loaded.major, v.loaded.major);
  detail += "; the rule: " + v.rule;
  if (v.product == VersionProduct::driver) return {"driver.version", {"device.create"}, detail};
  if (v.older == OlderSide::loaded) return {"framework.cudnn-older", {"files.search_path", "bundles.found"}, detail};
  if (v.older == OlderSide::built && v.loaded.major != v.built.major) return {"loader.cudnn-major", {"files.search_path"}, detail};
  return {"files.search_path", {"framework.cudnn-older", "bundles.found"},
          detail + "; this program still refuses it: it wants the copy it was built with (the one it ships, or that exact version)"};
}

Verdict gpu_verdict(const GpuStatement& g) {
  const auto cap = g.capability.empty() ? std::string() : fmt::format(" (the GPU: compute capability {})", g.capability);
  if (g.no_kernel_image && g.cudnn_named)
    return {"device.arch.too-new-gpu", {"device.arch.dropped"}, "cuDNN has no kernel for this GPU's architecture" + cap};
  if (g.no_kernel_image || g.arch_not_supported)
    return {"device.arch.program-build", {"device.arch.too-new-gpu", "device.arch.dropped"},
            "the program's own GPU code has no build for this GPU" + cap + "; no cuDNN call is named, so cuDNN is not what is missing"};
  if (g.driver_insufficient) return {"driver.version", {"driver.none"}, "the driver is older than the CUDA runtime the program uses"};
  return {"driver.none", {"driver.no-device"}, "the program finds no NVIDIA driver or GPU"};
}

Verdict status_verdict(const CudnnStatus& s) {
  std::string codes;
  if (s.v9_code >= 0) codes += fmt::format("cuDNN 9 code {}", s.v9_code);
  if (s.v78_code >= 0) codes += fmt::format("{}cuDNN 7/8 code {}", codes.empty() ? "" : ", ", s.v78_code);
  auto detail = fmt::format("{} ({}): {}; {}", s.name, codes, s.meaning, status_kind_text(s.kind));
  std::vector<std::string_view> also;
  if (s.signature == "workload.failed-layers") also = {"workload.out-of-memory", "device.arch.too-new-gpu", "device.arch.dropped"};
  if (s.signature == "files.versions.mixed") also = {"loader.versions.mixed", "loader.version_checks"};
  if (s.signature == "files.complete") also = {"loader.version_checks", "loader.sublibrary.elsewhere"};
  if (s.signature == "device.create") also = {"driver.version", "workload.out-of-memory"};
  if (s.signature == "device.arch.dropped") also = {"device.arch.too-new-gpu"};
  if (s.kind == StatusKind::unknown) detail += "; not known from this line: whether the set-up, memory or the program is at fault";
  return {s.signature, also, detail};
}

// The GPU's capability against the build's: the numbers decide whether the build runs on it.
std::optional<Verdict> capability_verdict(const CapabilityStatement& c) {
  const bool runs = c.fit && (*c.fit == CapabilityFit::native || *c.fit == CapabilityFit::same_major || *c.fit == CapabilityFit::ptx_jit);
  if (!c.gpu_refused && runs) return Verdict{"", {}, c.said(), nullptr};
  if (!c.gpu_refused && !c.fit) return std::nullopt;
  auto detail = c.said();
  if (detail.empty()) detail = "the program's build has no code for this GPU";
  return Verdict{"device.arch.program-build", {"device.arch.too-new-gpu", "device.arch.dropped"},
                 detail + "; the framework's or program's build decides, not cuDNN: install a build that lists this GPU", nullptr};
}

std::optional<Verdict> cuda_error_verdict(const LinePieces& p) {
  const bool cudnn_or_cublas = !p.statuses.empty();
  for (const auto& m : p.cuda_errors) {
    const auto& e = *m.error;
    auto detail = fmt::format("{} ({}{}): {}", e.name, m.said, m.old_numbering ? ", a number of CUDA 10.0 or older" : "", e.meaning);
    switch (e.kind) {
    case CudaErrorKind::setup:
      if (p.gpu && p.gpu->no_kernel_image) return std::nullopt;  // whose kernels are missing: the GPU statement's verdict
      if (e.signature == "driver.no-device") return Verdict{e.signature, {"driver.none"}, detail, nullptr};  // no GPU, or no driver loaded
      return Verdict{e.signature, {}, detail, nullptr};
    case CudaErrorKind::kernel: return Verdict{e.signature, {"workload.out-of-memory"}, detail, nullptr};
    case CudaErrorKind::memory:
      if (!cudnn_or_cublas) return Verdict{"", {}, detail, nullptr};  // a plain out of memory is no set-up matter
      return Verdict{e.signature, {}, detail, nullptr};
    case CudaErrorKind::program: return Verdict{"", {}, detail, nullptr};
    case CudaErrorKind::unknown: break;
    }
  }
  return std::nullopt;
}

} // namespace

LinePieces decode_pieces(std::string_view line) {
  LinePieces p;
  p.statuses = statuses_in(line);
  p.libraries = libraries_in(line);
  p.loader = loader_error_in(line);
  p.version = version_statement_in(line);
  p.gpu = gpu_statement_in(line);
  p.workload = workload_lookalike_in(line);
  p.capability = capability_statement_in(line);
  p.cuda_errors = cuda_errors_in(line);
  const auto lower = to_lower_ascii(line);
  p.windows = verdict_names(lower, "winerror") || verdict_names(lower, "error code") || verdict_names(lower, "win32") ||
              verdict_names(lower, ".dll");
  return p;
}

std::optional<Verdict> verdict_from(const LinePieces& p) {
  if (p.workload == WorkloadLookalike::rnn_backward_in_eval)
    return Verdict{"workload.rnn-backward-eval", {}, "an RNN's backward pass ran with the model in eval mode: not a cuDNN set-up problem", nullptr};
  if (p.workload == WorkloadLookalike::out_of_memory)
    return Verdict{"workload.out-of-memory", {"workload.failed-layers"},
                   "cuDNN found no algorithm whose memory could be allocated: the GPU is out of memory, not a cuDNN set-up problem", nullptr};
  if (p.workload == WorkloadLookalike::bad_input)
    return Verdict{"workload.bad-param", {"workload.engine-not-found"},
                   "the status's own text names its cause: an input of a layout the call does not take (make it contiguous): not a "
                   "cuDNN set-up problem",
                   nullptr};
  if (p.loader)
    if (auto v = loader_verdict(p)) return v;
  if (p.version) return version_verdict(*p.version);
  if (p.capability)
    if (auto v = capability_verdict(*p.capability)) return v;
  if (auto v = cuda_error_verdict(p)) return v;
  if (p.gpu) return gpu_verdict(*p.gpu);
  for (const auto& s : p.statuses)
    if (s.kind != StatusKind::success) return status_verdict(s);
  return std::nullopt;
}

} // namespace cudnnctl
