#include "cudnnctl/explain/explain.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/explain/library_list.hpp"
#include "cudnnctl/explain/log_fold.hpp"
#include "cudnnctl/explain/log_reader.hpp"
#include "cudnnctl/explain/verdict.hpp"

namespace cudnnctl {

namespace {

// The hand-written patterns: each recognises one message's wording. Most messages are explained by their pieces
// (verdict.hpp: status names, versions, library files, loader errors, GPU statements); a pattern stays only where
// the pieces cannot tell, and says why. `before_pieces` patterns are tried first: their context decides more than
// any piece inside them. The others are a fallback for lines whose pieces decide nothing.
// First pattern that fits wins: the specific ones come before the general ones they contain.
constexpr LogPattern k_patterns[] = {
    // Noise: PyTorch's plan warning carries CUDNN_STATUS_NOT_SUPPORTED, but another plan runs; the status alone would
    // name a failure.
    {{"plan failed with a cudnnexception"}, {"workload.plan-warning"}, true},
    // TensorRT's notice that CUDA_MODULE_LOADING is not LAZY: nothing failed (no signature: named as nothing).
    {{"cuda lazy loading is not enabled"}, {""}, true},
    // The package resolver, not the loader: a wheel's version pin names nvidia-* libraries that are not missing.
    {{"requires nvidia-", "but you have nvidia-"}, {"packages.pip-pin"}, true},
    {{"depends on nvidia-", "-cu1"}, {"packages.pip-pin"}, true},
    {{"satisfies the requirement nvidia-", "-cu1"}, {"packages.pip-pin"}, true},
    {{"no matching distribution found for nvidia-", "-cu1"}, {"packages.pip-pin"}, true},
    // The frameworks' words for an empty engine list (GET/FIND, the cudnn-frontend): no status or library in them.
    {{"was unable to find an engine"}, {"workload.engine-not-found", "framework.cudnn-older", "device.arch.too-new-gpu"}, true},
    {{"cudnn_frontend", "execution plan"}, {"workload.engine-not-found", "framework.cudnn-older", "device.arch.too-new-gpu"}, true},
    {{"cudnngraphnotsupportederror"}, {"workload.engine-not-found", "framework.cudnn-older"}, true},
    // Look-alikes whose wording names the cause: a kernel's device-side assertion ("block: [..], thread: [..]
    // Assertion `..` failed."), cuBLAS's handle and XLA's algorithm picker failing for want of memory.
    {{"block: [", "thread: [", "assertion"}, {"workload.kernel-fault"}, true},
    {{"cublas_status_not_initialized", "cublascreate"}, {"workload.out-of-memory", "driver.version"}, true},
    {{"failed to determine best cudnn convolution algorithm"}, {"workload.out-of-memory", "workload.engine-not-found"}, true},
    // NVRTC opens its builtins library (libnvrtc-builtins.so.X.Y, nvrtc-builtins64_XY.dll) of its own release at run time.
    {{"failed to open libnvrtc-builtins"}, {"loader.cuda-runtime", "loader.runtime_deps"}, true},
    {{"nvrtc-builtins64_", "could not"}, {"loader.cuda-runtime", "loader.runtime_deps"}, true},
    // Noise from TensorFlow/XLA: it names cuDNN but nothing failed.
    {{"unable to register cu", "factory"}, {"loader.factory-registered"}, true},
    {{"attempting to register factory for plugin"}, {"loader.factory-registered"}, true},
    // Framework wrappers whose own fix (ONNX Runtime's CUDA/cuDNN table, Paddle's loader) is more specific than
    // the library named inside them; the library still goes into the detail.
    {{"third-party dynamic library", "paddle"}, {"framework.paddle-dynload", "loader.cudnn-major", "loader.cuda-runtime"}, true},
    {{"cannot load cudnn shared library"}, {"framework.paddle-dynload", "framework.cudnn-not-found"}, true},
    {{"onnxruntime_providers_cuda"}, {"loader.onnxruntime", "loader.cudnn-major", "loader.cuda-runtime"}, true},
    {{"failed to create cudaexecutionprovider"}, {"loader.onnxruntime", "loader.cudnn-major", "loader.cuda-runtime"}, true},
    {{"cuda_path is set but cuda wasn"}, {"loader.onnxruntime", "loader.cuda-runtime"}, true},
    {{"loadlibrary failed with error 126"}, {"loader.onnxruntime", "loader.needed.windows"}, true},
    // TensorFlow's summary line: it names no library, status or version.
    {{"cannot dlopen some gpu libraries"}, {"loader.tf-cannot-dlopen"}, true},

    // Fallback: what the pieces usually decide, kept for wordings whose pieces do not parse (no version numbers,
    // no file name, a status spelt otherwise). The messages of the doctor's own conditions (the driver, the
    // sub-libraries, the Windows load errors) are declared by their rows in data/failure-signatures.json.
    {{"glibcxx_", "not found"}, {"loader.glibc"}},
    {{"glibc_2.", "not found"}, {"loader.glibc"}},
    {{"loaded runtime cudnn library"}, {"framework.cudnn-older", "files.search_path", "bundles.found"}},
    {{"cudnn version incompatibility"}, {"framework.cudnn-older", "files.search_path", "bundles.found"}},
    {{"found cudnn version", "built against"}, {"framework.cudnn-older", "files.search_path"}},
    {{"outdated cudnn installation"}, {"framework.cudnn-older", "files.search_path"}},
    // A consequence the framework reports after the cuDNN it loaded refused to start: no version in the line.
    {{"dnn library initialization failed"}, {"framework.cudnn-older", "device.create"}},
    {{"unable to load cudnn"}, {"framework.cudnn-not-found", "files.cudnn"}},
    {{"cudnn not available for your platform"}, {"framework.cudnn-not-found", "files.cudnn"}},
    {{"dnn library not found"}, {"framework.cudnn-not-found", "files.cudnn"}},
    {{"could not load dynamic library 'libcudnn"}, {"framework.cudnn-not-found", "loader.cudnn-major"}},
    // A cuDNN of another major: cuDNN 8 file names (9 has no ops_infer/cnn_infer), or cuDNN 9's main library.
    {{"libcudnn", ".so.8: cannot open shared object file"}, {"loader.cudnn-major", "files.complete", "loader.needed"}},
    {{"could not load library libcudnn_", ".so.8"}, {"loader.cudnn-major", "files.complete"}},
    {{"cudnn", "64_8.dll", "could not"}, {"loader.cudnn-major", "files.complete", "loader.needed.windows"}},
    {{"cudnn", "64_8.dll", "not found"}, {"loader.cudnn-major", "files.complete", "loader.needed.windows"}},
    {{"libcudnn.so.9: cannot open shared object file"}, {"loader.cudnn-major", "files.cudnn", "files.complete"}},
    {{"cudnn64_9.dll", "could not"}, {"loader.cudnn-major", "files.cudnn", "loader.needed.windows"}},
    {{"cudnn64_9.dll", "not found"}, {"loader.cudnn-major", "files.cudnn", "loader.needed.windows"}},
    // The CUDA runtime libraries (toolkit or nvidia-*-cuNN wheels), not cuDNN's.
    {{"libcudart.so", "cannot open shared object file"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"libcublas", "cannot open shared object file"}, {"loader.cuda-runtime", "loader.cuda-majors", "loader.runtime_deps"}},
    {{"libnvrtc", "cannot open shared object file"}, {"loader.cuda-runtime", "loader.runtime_deps", "loader.cuda-majors"}},
    {{"could not load dynamic library 'libcudart"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"could not load dynamic library 'libcublas"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"could not load dynamic library 'libnvrtc"}, {"loader.cuda-runtime", "loader.runtime_deps"}},
    {{"could not find module", "64_13.dll"}, {"toolkit.cuda13-bin-x64", "loader.cuda-runtime"}},
    {{"64_13.dll", "not found"}, {"toolkit.cuda13-bin-x64", "loader.cuda-runtime"}},
    {{"cublas", "64_", "not found"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"cublas", "64_", "could not"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"cudart64_", "not found"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"cudart64_", "could not"}, {"loader.cuda-runtime", "loader.cuda-majors"}},
    {{"nvrtc64_", "not found"}, {"loader.cuda-runtime", "loader.runtime_deps"}},
    {{"nvrtc64_", "could not"}, {"loader.cuda-runtime", "loader.runtime_deps"}},
    {{"winerror 1455"}, {"loader.paging-file"}},
    {{"paging file is too small"}, {"loader.paging-file"}},
    {{"is not compatible with the current pytorch installation"}, {"device.arch.program-build", "device.arch.too-new-gpu"}},
    // cudaErrorSystemNotReady's text where the line names no CUDA (gpu-burn, NCCL): NVSwitch systems without the fabric manager.
    {{"system not yet initialized"}, {"driver.fabric-manager", "driver.init"}},
};

constexpr std::size_t k_max_line = 4096;  // read of each line
constexpr std::size_t k_max_shown = 500;  // kept of it in a match

std::string lower_ascii(std::string_view s) { return to_lower_ascii(s); }

bool fits(const LogPattern& p, const std::string& lower) {
  bool any = false;
  for (auto piece : p.all_of) {
    if (piece.empty()) continue;
    if (lower.find(piece) == std::string::npos) return false;
    any = true;
  }
  return any;
}

// cuDNN's version numbers as frameworks print them: 8906 (8.x: major*1000) or 91300 (9.x: major*10000).
std::string decoded_version(const std::string& digits) {
  const long v = std::strtol(digits.c_str(), nullptr, 10);
  if (v >= 10000) return fmt::format("{}.{}.{}", v / 10000, v % 10000 / 100, v % 100);
  if (v >= 1000) return fmt::format("{}.{}.{}", v / 1000, v % 1000 / 100, v % 100);
  return digits;
}

std::string major_note(const std::string& loaded, const std::string& built) {
  const auto major = [](const std::string& v) { return v.substr(0, v.find_first_of(".,")); };
  if (major(loaded) == major(built)) return "";
  return fmt::format("; the majors differ: install cuDNN {} beside the {} (or the framework build for cuDNN {})", major(built),
                     major(loaded), major(loaded));
}

// TensorFlow/XLA, JAX and PyTorch print the cuDNN they loaded and the one they were built with.
std::string framework_detail(const std::string& line) {
  std::smatch m;
  static const std::regex loaded(R"(Loaded runtime CuDNN library:\s*([0-9]+(?:\.[0-9]+)*)\D+compiled with:\s*([0-9]+(?:\.[0-9]+)*))", std::regex::icase);
  static const std::regex jax(R"(Found cuDNN version ([0-9]+), but JAX was built against version ([0-9]+))", std::regex::icase);
  static const std::regex torch(R"(compiled\s+against \(([0-9, ]+)\) but found runtime version \(([0-9, ]+)\))", std::regex::icase);
  std::string have, want;
  if (std::regex_search(line, m, loaded)) have = m[1].str(), want = m[2].str();
  else if (std::regex_search(line, m, jax)) have = decoded_version(m[1].str()), want = decoded_version(m[2].str());
  else if (std::regex_search(line, m, torch)) {
    have = std::regex_replace(m[2].str(), std::regex(",\\s*"), "."), want = std::regex_replace(m[1].str(), std::regex(",\\s*"), ".");
  }
  if (have.empty()) return {};
  return fmt::format("the cuDNN loaded is {}, older than the {} the program was built with{}", have, want, major_note(have, want));
}

// A library name with the major in it: libcublasLt.so.12, cublas64_12.dll, nvrtc64_120_0.dll, libcudnn_ops_infer.so.8.
struct NamedLibrary {
  std::string file, base, major;
};

std::optional<NamedLibrary> named_library(const std::string& line, const std::string& family) {
  const std::regex re("((?:lib)?(" + family + R"([A-Za-z_]*)(?:\.so\.|64_)([0-9]+)(?:[._][0-9]+)*(?:\.dll)?))", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(line, m, re)) return std::nullopt;
  auto major = m[3].str();
  if (major.size() == 3) major = major.substr(0, 2);  // nvrtc64_120_0.dll: CUDA 12.0
  return NamedLibrary{m[1].str(), m[2].str(), major};
}

std::string runtime_name(std::string base) {
  base = to_lower_ascii(base);
  if (base.starts_with("cublaslt")) return "cuBLASLt";
  if (base.starts_with("cublas")) return "cuBLAS";
  if (base.starts_with("cudart")) return "cudart (the CUDA runtime)";
  if (base.starts_with("nvrtc")) return "NVRTC";
  return base;
}

std::string library_detail(const std::string& line, const Signature& s) {
  if (s.id == "loader.cuda-runtime") {
    if (auto lib = named_library(line, "(?:cublas|cudart|nvrtc)"))
      return fmt::format("{} of CUDA {} cannot be found ({}); it comes with the CUDA {} toolkit{}, not with cuDNN", runtime_name(lib->base),
                         lib->major, lib->file, lib->major,
                         std::strtol(lib->major.c_str(), nullptr, 10) >= 11 ? fmt::format(" or the nvidia-*-cu{} wheels", lib->major) : "");
  }
  if (s.id == "loader.cudnn-major" || s.id == "framework.paddle-dynload" || s.id == "loader.onnxruntime") {
    if (auto lib = named_library(line, "cudnn")) {
      const auto named = classify_cudnn_file(lib->file, Os::linux_os) ? classify_cudnn_file(lib->file, Os::linux_os)
                                                                       : classify_cudnn_file(lib->file, Os::windows);
      const bool v8_only = lib->major == "8" && named && named->cudnn8_only();
      return fmt::format("the program was built for cuDNN {}: it asks for {}{}", lib->major, lib->file,
                         v8_only ? " (a cuDNN 8 file name: cuDNN 9 has no such file, so installing 9 does not help)" : "");
    }
    if (auto lib = named_library(line, "(?:cublas|cudart|nvrtc)"))
      return fmt::format("it needs {} of CUDA {} ({}): install that CUDA major's libraries", runtime_name(lib->base), lib->major, lib->file);
  }
  return {};
}

std::string wrapper_detail(const std::string& line, const Signature& s) {
  std::smatch m;
  if (s.id == "loader.onnxruntime") {
    static const std::regex require(R"(Require cuDNN ([0-9.*]+) and CUDA ([0-9.*]+))", std::regex::icase);
    if (std::regex_search(line, m, require))
      return fmt::format("this onnxruntime-gpu build needs cuDNN {} and CUDA {}", m[1].str(), m[2].str());
  }
  if (s.id == "framework.paddle-dynload") {
    static const std::regex code(R"(error code is ([^)]+)\))", std::regex::icase);
    if (std::regex_search(line, m, code)) return fmt::format("the loader said: {}", m[1].str());
  }
  if (s.id == "packages.pip-pin") {
    static const std::regex requires_(R"(([A-Za-z0-9_.+-]+ [0-9][^ ]*) requires (nvidia-[a-z0-9-]+==[0-9.]+).*but you have nvidia-[a-z0-9-]+ ([0-9.]+))");
    static const std::regex wanted(R"((nvidia-[a-z0-9-]+==[0-9.]+))");
    if (std::regex_search(line, m, requires_))
      return fmt::format("{} pins {}, but {} is installed", m[1].str(), m[2].str(), m[3].str());
    if (std::regex_search(line, m, wanted)) return fmt::format("the pin that cannot be met: {}", m[1].str());
  }
  if (s.id == "loader.glibc") {
    static const std::regex floor(R"(version .((GLIBC|GLIBCXX)_[0-9.]+). not found(?: \(required by ([^)]+)\))?)");
    if (std::regex_search(line, m, floor))
      return fmt::format("needs {} ({}) but this system's is older{}", m[1].str(), m[2].str() == "GLIBC" ? "glibc" : "libstdc++",
                         m[3].matched ? fmt::format("; required by {}", m[3].str()) : std::string());
  }
  if (s.id == "workload.engine-not-found") {
    if (line.find("FIND was unable") != std::string::npos) return "cuDNN benchmarked the engines (FIND) and none ran this operation";
    if (line.find("GET was unable") != std::string::npos) return "cuDNN's heuristics (GET) offered no engine for this operation";
    return "the cudnn-frontend built no execution plan for this graph";
  }
  return {};
}

// NVRTC's builtins library: of exactly its NVRTC's release, opened by NVRTC at run time.
std::string builtins_detail(const std::string& line) {
  static const std::regex builtins(R"((libnvrtc-builtins\.so\.([0-9]+)\.([0-9]+)|nvrtc-builtins64_([0-9]+)[0-9]\.dll))", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(line, m, builtins)) return {};
  const auto release = m[2].matched ? fmt::format("{}.{}", m[2].str(), m[3].str()) : m[4].str();
  return fmt::format("NVRTC cannot open its builtins library {} (CUDA {}): NVRTC opens it at run time and it must be of exactly "
                     "NVRTC's release, beside libnvrtc on the loader path",
                     m[1].str(), release);
}

// What the line itself says beyond the signature: the versions it compares, the library it names.
std::string detail_of(const std::string& line, const Signature& s) {
  if (auto d = builtins_detail(line); !d.empty()) return d;
  if (auto list = library_list_in(line)) return list->said();
  std::smatch m;
  if (s.id == "framework.cudnn-older" || s.id == "files.search_path")
    if (auto d = framework_detail(line); !d.empty()) return d;
  if (auto d = library_detail(line, s); !d.empty()) return d;
  if (auto d = wrapper_detail(line, s); !d.empty()) return d;
  static const std::regex so(R"(([A-Za-z0-9_+.-]+\.so(?:\.[0-9]+)*): cannot open shared object file)");
  if (std::regex_search(line, m, so)) return fmt::format("the library that cannot be found: {}", m[1].str());
  static const std::regex symbol(R"(undefined symbol: ([A-Za-z_][A-Za-z0-9_]*))");
  if (std::regex_search(line, m, symbol)) return fmt::format("the symbol missing: {}", m[1].str());
  static const std::regex cannot_load(R"(Cannot load symbol ([A-Za-z_][A-Za-z0-9_]*))", std::regex::icase);
  if (std::regex_search(line, m, cannot_load)) return fmt::format("cuDNN wanted {} from a sub-library it could not open", m[1].str());
  static const std::regex dll(R"(([A-Za-z0-9_.+-]+\.dll))", std::regex::icase);
  if (std::regex_search(line, m, dll)) return fmt::format("the DLL named: {}", m[1].str());
  return {};
}

} // namespace

namespace {

// The hand-written patterns, then the message shapes the signature rows declare (data/failure-signatures.json):
// built once, in the order they are tried within their group (before the pieces, or after).
const std::vector<LogPattern>& all_patterns() {
  static const std::vector<LogPattern> all = [] {
    std::vector<LogPattern> out(std::begin(k_patterns), std::end(k_patterns));
    for (const auto& s : signatures())
      for (const auto& m : s.messages) out.push_back({{m.all_of[0], m.all_of[1], m.all_of[2]}, {s.id, m.also[0], m.also[1]}, m.first});
    std::stable_partition(out.begin(), out.end(), [](const LogPattern& p) { return p.before_pieces; });
    return out;
  }();
  return all;
}

} // namespace

std::span<const LogPattern> log_patterns() { return all_patterns(); }

namespace {

ExplainMatch match_of(std::string_view id, const std::vector<std::string_view>& also, const std::string& cut, std::size_t line_no) {
  ExplainMatch m;
  m.line = line_no;
  m.text = cut.substr(0, k_max_shown);
  m.signature = &signature(id);
  for (auto a : also)
    if (!a.empty() && a != id) m.also.push_back(&signature(a));
  return m;
}

ExplainMatch pattern_match(const LogPattern& p, const std::string& cut, std::size_t line_no) {
  auto m = match_of(p.signatures[0], {p.signatures[1], p.signatures[2]}, cut, line_no);
  m.detail = detail_of(cut, *m.signature);
  return m;
}

// Lines worth decoding: the pieces' readers are regular expressions, so a line that mentions none of what they
// read (most of a training log) is not run through them.
bool worth_decoding(const std::string& lower) {
  static constexpr std::string_view hints[] = {"cudnn", "status_", ".so", ".dll", "cuda", "driver", "kernel image", "training mode",
                                               "winerror", "error code", "symbol", "glibc", "capability", "not found", "nvrtc", "cublas",
                                               "gpu", "ptx", "contiguous", "assert", "illegal", "launch", "initialized"};
  for (auto h : hints)
    if (lower.find(h) != std::string::npos) return true;
  return false;
}

} // namespace

std::vector<ExplainMatch> explain_line(std::string_view line, std::size_t line_no) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::string cut(line.substr(0, k_max_line));
  const auto lower = lower_ascii(cut);
  const auto& patterns = all_patterns();
  for (const auto& p : patterns)
    if (p.before_pieces && fits(p, lower)) {
      if (p.signatures[0].empty()) return {};  // known noise that names nothing
      return {pattern_match(p, cut, line_no)};
    }
  if (worth_decoding(lower)) {
    const auto pieces = decode_pieces(cut);  // the verdict's library points into it
    if (auto v = verdict_from(pieces)) {
      if (v->signature.empty()) return {};  // the pieces decide: not a set-up problem (a device number, a PTX JIT notice)
      auto m = match_of(v->signature, v->also, cut, line_no);
      m.detail = v->detail.empty() ? detail_of(cut, *m.signature) : v->detail;
      if (auto list = library_list_in(cut); list && m.detail.find(list->said()) == std::string::npos)
        m.detail += (m.detail.empty() ? "" : "; ") + list->said();  // every entry of the loader's list, with its major
      if (v->library) {
        m.library = v->library->file;
        m.library_dir = v->library->path;
        m.library_windows = v->library->os == Os::windows;
      }
      return {m};
    }
  }
  for (const auto& p : patterns)
    if (!p.before_pieces && fits(p, lower)) return {pattern_match(p, cut, line_no)};
  return {};
}

void CudnnMajorsSeen::feed(std::string_view line, std::size_t line_no) {
  const std::string cut(line.substr(0, k_max_line));
  if (lower_ascii(cut).find("cudnn") == std::string::npos) return;
  // A cuDNN file of a major (a listing, a path), a wheel of a version, or "cuDNN 9.2.1" / "cudnn version 90100".
  static const std::regex file(R"((?:lib)?cudnn[A-Za-z_]*(?:\.so\.|64_)([0-9]+))", std::regex::icase);
  static const std::regex wheel(R"(nvidia-cudnn-cu1[0-9][ =_-]+([0-9]+)\.)", std::regex::icase);
  static const std::regex dotted(R"(cudnn\D{0,24}?\b([0-9])\.[0-9]+\.[0-9]+)", std::regex::icase);
  static const std::regex packed(R"(cudnn\D{0,24}?\b([0-9]{4,5})\b)", std::regex::icase);
  std::smatch m;
  std::string major;
  if (std::regex_search(cut, m, file) || std::regex_search(cut, m, wheel) || std::regex_search(cut, m, dotted)) major = m[1].str();
  else if (std::regex_search(cut, m, packed)) major = decoded_version(m[1].str()).substr(0, 1);
  if (!major.empty() && !seen_.contains(major)) seen_[major] = line_no;
}

void CudnnMajorsSeen::annotate(std::vector<ExplainMatch>& matches) const {
  static const std::regex wanted(R"(built for cuDNN ([0-9]+))");
  for (auto& m : matches) {
    std::smatch w;
    if (m.signature->id != "loader.cudnn-major" || !std::regex_search(m.detail, w, wanted)) continue;
    for (const auto& [major, line] : seen_)
      if (major != w[1].str() && line != m.line) {
        m.detail += fmt::format("; the log names cuDNN {} on line {}: the major installed, so install cuDNN {} beside it", major, line, w[1].str());
        break;
      }
  }
}

std::vector<ExplainMatch> explain_text(std::string_view text) {
  std::vector<ExplainMatch> out;
  CudnnMajorsSeen majors;
  LogReader reader;  // the first error first: later errors that follow from it are folded under it
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    majors.feed(line, line_no);
    for (auto& m : reader.feed(line, line_no)) out.push_back(std::move(m));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  for (auto& m : reader.finish()) out.push_back(std::move(m));
  majors.annotate(out);
  return out;
}

} // namespace cudnnctl
