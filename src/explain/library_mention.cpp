#include "cudnnctl/explain/library_mention.hpp"

#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

unsigned mention_number(const std::string& digits) { return static_cast<unsigned>(std::strtoul(digits.c_str(), nullptr, 10)); }

// A Windows CUDA DLL's version digits -> its CUDA major: cudart64_110 (11.0), cudart64_101 (10.1), cublas64_12,
// cublas64_11, cudart64_90 (9.0), cudart64_65 (6.5), nvrtc64_120_0 (12.0).
unsigned windows_cuda_major(const std::string& digits) {
  if (digits.size() >= 3) return mention_number(digits.substr(0, 2));
  if (digits.size() == 2 && digits[0] == '1') return mention_number(digits);
  return digits.empty() ? 0 : mention_number(digits.substr(0, 1));
}

struct FamilyName {
  std::string_view stem;  // lower case, after "lib" on Linux
  LibraryFamily family;
};

// Longest stems first: cublasLt before cublas, nvrtc-builtins before nvrtc.
constexpr FamilyName k_family_stems[] = {
    {"cublaslt", LibraryFamily::cublaslt}, {"cublas", LibraryFamily::cublas},   {"cudart", LibraryFamily::cudart},
    {"nvrtc-builtins", LibraryFamily::nvrtc_builtins}, {"nvrtc", LibraryFamily::nvrtc}, {"nvcuda", LibraryFamily::driver},
    {"cuda", LibraryFamily::driver},       {"zlibwapi", LibraryFamily::zlibwapi},
};

// A framework's own library that loads CUDA and cuDNN: its failure is the framework's wrapper, not a CUDA library.
constexpr std::string_view k_framework_stems[] = {"onnxruntime", "torch", "c10_cuda", "_pywrap_tensorflow", "tensorflow", "paddle",
                                                  "ctranslate2", "mxnet", "nvinfer", "caffe", "caffe2", "jaxlib", "xla", "dlib"};

std::optional<LibraryMention> cuda_family(LibraryMention m, const std::string& lower, bool windows) {
  std::string stem = lower;
  if (!windows && stem.starts_with("lib")) stem.erase(0, 3);
  for (const auto& f : k_family_stems) {
    if (!stem.starts_with(f.stem)) continue;
    const auto rest = stem.substr(f.stem.size());
    if (f.family == LibraryFamily::driver) {
      // libcuda.so[.1], nvcuda.dll: nothing may follow the stem but the suffix (libcudart is not libcuda)
      if (!(rest.starts_with(".so") || rest == ".dll")) continue;
      m.family = f.family;
      return m;
    }
    m.family = f.family;
    static const std::regex linux_version(R"(^(?:64)?\.so\.([0-9]+))");
    static const std::regex windows_version(R"(^64_([0-9]+))");
    std::smatch v;
    if (!windows && std::regex_search(rest, v, linux_version)) m.major = mention_number(v[1].str());
    if (windows && std::regex_search(rest, v, windows_version)) m.major = windows_cuda_major(v[1].str());
    return m;
  }
  for (auto fw : k_framework_stems)
    if (stem.starts_with(fw)) {
      m.family = LibraryFamily::framework;
      return m;
    }
  return m;
}

} // namespace

bool LibraryMention::cuda_library() const {
  return family == LibraryFamily::cublas || family == LibraryFamily::cublaslt || family == LibraryFamily::cudart ||
         family == LibraryFamily::nvrtc || family == LibraryFamily::nvrtc_builtins;
}

std::string LibraryMention::described() const {
  const auto of_cuda = major ? fmt::format(" of CUDA {}", major) : std::string();
  switch (family) {
  case LibraryFamily::cudnn:
    if (!cudnn) return "cuDNN (an unversioned name: the major is not in it)";
    if (cudnn->main()) return fmt::format("cuDNN {}'s main library", major);
    return fmt::format("cuDNN {}'s {} sub-library", major, cudnn->sub_library.substr(6));
  case LibraryFamily::cublas: return "cuBLAS" + of_cuda;
  case LibraryFamily::cublaslt: return "cuBLASLt" + of_cuda;
  case LibraryFamily::cudart: return "cudart (the CUDA runtime)" + of_cuda;
  case LibraryFamily::nvrtc: return "NVRTC" + of_cuda;
  case LibraryFamily::nvrtc_builtins: return "NVRTC's builtins" + of_cuda;
  case LibraryFamily::driver: return os == Os::windows ? "the NVIDIA driver's nvcuda.dll" : "the NVIDIA driver's libcuda";
  case LibraryFamily::zlibwapi: return "zlibwapi (zlib, which cuDNN 8 on Windows needs)";
  case LibraryFamily::framework: return "a framework's own library";
  case LibraryFamily::other: break;
  }
  return "a library";
}

std::optional<LibraryMention> library_mention_of(std::string_view file) {
  const auto lower = to_lower_ascii(file);
  const bool windows = lower.ends_with(".dll");
  if (!windows && lower.find(".so") == std::string::npos) return std::nullopt;
  LibraryMention m;
  m.file = std::string(file);
  m.os = windows ? Os::windows : Os::linux_os;
  if (auto c = classify_cudnn_file(file, m.os)) {
    m.family = LibraryFamily::cudnn;
    m.major = c->major;
    m.cudnn = std::move(c);
    return m;
  }
  if (lower.starts_with("libcudnn") || lower.starts_with("cudnn")) {  // libcudnn.so, cudnn.dll: cuDNN of an unknown major
    m.family = LibraryFamily::cudnn;
    return m;
  }
  return cuda_family(std::move(m), lower, windows);
}

std::vector<LibraryMention> libraries_in(std::string_view line) {
  static const std::regex name(R"(([A-Za-z0-9_+-]+(?:\.so(?:\.[0-9]+)*|\.dll))(?![A-Za-z0-9_]))", std::regex::icase);
  std::vector<LibraryMention> out;
  const std::string text(line);
  for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it) {
    auto m = library_mention_of((*it)[1].str());
    if (!m) continue;
    // The folder written right before the name (/usr/lib/x86_64-linux-gnu/, C:\...\bin\), if any.
    const auto start = static_cast<std::size_t>(it->position(1));
    if (start > 0 && (text[start - 1] == '/' || text[start - 1] == '\\')) {
      const auto stop = text.find_last_of(" \t'\"({,", start - 1);
      const auto from = stop == std::string::npos ? 0 : stop + 1;
      m->path = text.substr(from, start - from);
    }
    bool seen = false;
    for (const auto& o : out) seen = seen || (o.family == m->family && o.major == m->major && o.file == m->file);
    if (!seen) out.push_back(std::move(*m));
  }
  return out;
}

} // namespace cudnnctl
