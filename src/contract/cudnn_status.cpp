#include "cudnnctl/contract/cudnn_status.hpp"

#include <regex>
#include <string>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

using K = StatusKind;

// cuDNN 9's numbers are cudnn_graph.h's (a test parses the header of this image and looks each name up);
// cuDNN 7/8's are data/cudnn8-statuses.json's (NVIDIA's cuDNN 8 API reference, sourced there). Meanings
// follow NVIDIA's API reference for cudnnStatus_t, in words a user can act on.
constexpr CudnnStatus k_status_rows[] = {
    {"CUDNN_STATUS_SUCCESS", 0, 0, false, K::success, "the call succeeded", ""},
    {"CUDNN_STATUS_NOT_INITIALIZED", 1001, 1, false, K::setup,
     "cuDNN could not initialise: usually the driver is older than the CUDA runtime cuDNN was built with, or the GPU has no memory left for the handle",
     "device.create"},
    {"CUDNN_STATUS_ALLOC_FAILED", 4003, 2, false, K::resources,
     "cuDNN could not allocate memory (in cuDNN 9 an alias of INTERNAL_ERROR_HOST_ALLOCATION_FAILED): the GPU or host is out of memory",
     "workload.out-of-memory"},
    {"CUDNN_STATUS_BAD_PARAM", 2000, 3, false, K::program,
     "the program passed an invalid argument (a shape, a stride, a descriptor, a null pointer)", "workload.bad-param"},
    {"CUDNN_STATUS_INTERNAL_ERROR", 4000, 4, false, K::unknown,
     "an internal cuDNN operation failed; alone it does not say why (memory, a driver fault or a cuDNN bug)", "workload.cudnn-status"},
    {"CUDNN_STATUS_INVALID_VALUE", 2001, 5, false, K::program, "an argument has a value cuDNN does not accept (deprecated in 9 for BAD_PARAM)",
     "workload.bad-param"},
    {"CUDNN_STATUS_ARCH_MISMATCH", 3007, 6, false, K::gpu,
     "the function needs a feature this GPU lacks: the GPU is older than this cuDNN supports (in 9 an alias of NOT_SUPPORTED_ARCH_MISMATCH)",
     "device.arch.dropped"},
    {"CUDNN_STATUS_MAPPING_ERROR", 4006, 7, false, K::unknown, "a GPU memory access (a texture binding) failed", "workload.cudnn-status"},
    {"CUDNN_STATUS_EXECUTION_FAILED", 5000, 8, false, K::unknown,
     "a cuDNN kernel failed to run on the GPU: out of memory, no kernel for this GPU, or a fault earlier in the program", "workload.failed-layers"},
    {"CUDNN_STATUS_NOT_SUPPORTED", 3000, 9, false, K::unsupported, "cuDNN has no implementation for this operation, shape or data type",
     "workload.engine-not-found"},
    {"CUDNN_STATUS_LICENSE_ERROR", 1005, 10, false, K::unknown, "a license check failed (early cuDNN releases)", "workload.cudnn-status"},
    {"CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", 3008, 11, false, K::setup,
     "a library cuDNN opens at run time (NVRTC, cuBLASLt) is missing or of the wrong version", "loader.runtime_deps"},
    {"CUDNN_STATUS_RUNTIME_IN_PROGRESS", 1006, 12, false, K::program, "an asynchronous check has not finished (cudnnQueryRuntimeError)",
     "workload.cudnn-status"},
    {"CUDNN_STATUS_RUNTIME_FP_OVERFLOW", 1007, 13, false, K::program, "a numerical overflow happened inside the computation",
     "workload.cudnn-status"},
    {"CUDNN_STATUS_VERSION_MISMATCH", 1002, 14, true, K::setup,
     "cuDNN's sub-libraries are of different versions (in 9 an alias of SUBLIBRARY_VERSION_MISMATCH)", "files.versions.mixed"},
    {"CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", 1002, -1, false, K::setup, "cuDNN's sub-libraries are of different releases",
     "files.versions.mixed"},
    {"CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH", 1003, -1, false, K::program,
     "a serialized plan or graph was made by another cuDNN release", "workload.cudnn-status"},
    {"CUDNN_STATUS_DEPRECATED", 1004, -1, false, K::program, "the program used a deprecated API in a mode that forbids it",
     "workload.cudnn-status"},
    {"CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", 1008, -1, false, K::setup,
     "a cuDNN sub-library (libcudnn_*.so.9, cudnn_*64_9.dll) could not be loaded: missing beside the main library or off the search path",
     "files.complete"},
    {"CUDNN_STATUS_BAD_PARAM_NULL_POINTER", 2002, -1, false, K::program, "the program passed a null pointer", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER", 2003, -1, false, K::program, "the program passed a misaligned pointer", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED", 2004, -1, false, K::program, "a descriptor was used before it was finalized", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND", 2005, -1, false, K::program, "an argument is out of its allowed range", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT", 2006, -1, false, K::program, "a buffer the program passed is too small", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH", 2007, -1, false, K::program, "the stream does not match the handle's", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH", 2008, -1, false, K::program, "tensor shapes do not fit together", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES", 2009, -1, false, K::program, "an entry was given twice", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE", 2010, -1, false, K::program, "an attribute has the wrong type", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH", 2011, -1, false, K::program, "the CUDA graph does not match the plan", "workload.bad-param"},
    {"CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE", 2012, -1, false, K::program, "a descriptor of the wrong type was passed", "workload.bad-param"},
    {"CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", 3001, -1, false, K::unsupported, "no engine supports this graph pattern",
     "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_SHAPE", 3002, -1, false, K::unsupported, "no engine supports these shapes", "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE", 3003, -1, false, K::unsupported, "no engine supports this data type", "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_LAYOUT", 3004, -1, false, K::unsupported, "no engine supports this memory layout", "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", 3005, -1, false, K::setup,
     "the driver is older than the CUDA runtime this cuDNN needs", "driver.version"},
    {"CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART", 3006, -1, false, K::setup,
     "the CUDA runtime loaded is not the one this cuDNN was built for (another CUDA major or an older minor)", "loader.cuda-majors"},
    {"CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", 3007, -1, false, K::gpu, "this cuDNN does not support the GPU's architecture",
     "device.arch.dropped"},
    {"CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", 3008, -1, false, K::setup,
     "a library cuDNN opens at run time (NVRTC, cuBLASLt) is missing or of the wrong version", "loader.runtime_deps"},
    {"CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", 3009, -1, false, K::setup,
     "the cuDNN sub-library that holds this operation is not installed or not loadable", "files.complete"},
    {"CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", 3010, -1, false, K::unsupported,
     "the operation needs more shared memory than this GPU has", "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_PADDING", 3011, -1, false, K::unsupported, "no engine supports this padding", "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM", 3012, -1, false, K::unsupported, "the kernel cannot be launched with these parameters",
     "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API", 3013, -1, false, K::unsupported, "this operation cannot be captured natively in a CUDA graph",
     "workload.engine-not-found"},
    {"CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE", 3014, -1, false, K::unsupported, "the dynamic shape is not supported",
     "workload.engine-not-found"},
    {"CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED", 4001, -1, false, K::unknown,
     "a runtime-compiled kernel failed to compile (NVRTC): an NVRTC of another CUDA release, or a cuDNN bug", "workload.cudnn-status"},
    {"CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE", 4002, -1, false, K::unknown, "cuDNN met a value it did not expect", "workload.cudnn-status"},
    {"CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", 4003, -1, false, K::resources, "cuDNN could not allocate host memory",
     "workload.out-of-memory"},
    {"CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", 4004, -1, false, K::resources, "cuDNN could not allocate GPU memory",
     "workload.out-of-memory"},
    {"CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM", 4005, -1, false, K::unknown, "a kernel launch failed inside cuDNN", "workload.cudnn-status"},
    {"CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED", 4006, -1, false, K::unknown, "a texture object could not be created",
     "workload.cudnn-status"},
    {"CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER", 5001, -1, false, K::unknown, "a kernel failed with a CUDA driver error",
     "workload.failed-layers"},
    {"CUDNN_STATUS_EXECUTION_FAILED_CUBLAS", 5002, -1, false, K::unknown, "a cuBLAS call inside cuDNN failed", "workload.failed-layers"},
    {"CUDNN_STATUS_EXECUTION_FAILED_CUDART", 5003, -1, false, K::unknown, "a CUDA runtime call inside cuDNN failed", "workload.failed-layers"},
    {"CUDNN_STATUS_EXECUTION_FAILED_CURAND", 5004, -1, false, K::unknown, "a cuRAND call inside cuDNN failed", "workload.failed-layers"},
};

std::string upper_ascii(std::string s) {
  for (auto& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

// "ALLOC_FAILED" from "CUDNN_STATUS_ALLOC_FAILED", "STATUS_ALLOC_FAILED" or "cudnnStatusAllocFailed".
std::string status_key(std::string_view name) {
  std::string s(name);
  if (s.starts_with("cudnnStatus")) {
    std::string out;
    for (std::size_t i = 11; i < s.size(); ++i) {
      if (i > 11 && s[i] >= 'A' && s[i] <= 'Z') out += '_';
      out += s[i];
    }
    return upper_ascii(out);
  }
  s = upper_ascii(s);
  if (s.starts_with("CUDNN_")) s.erase(0, 6);
  if (s.starts_with("STATUS_")) s.erase(0, 7);
  return s;
}

} // namespace

std::string_view status_kind_text(StatusKind k) {
  switch (k) {
  case K::success: return "success";
  case K::setup: return "a set-up problem";
  case K::program: return "the program's arguments (not a cuDNN set-up problem)";
  case K::resources: return "resources: memory (not a cuDNN set-up problem)";
  case K::gpu: return "the GPU's architecture against this cuDNN";
  case K::unsupported: return "no cuDNN engine for this operation (not a set-up problem)";
  case K::unknown: break;
  }
  return "cuDNN's own failure: the status alone does not say why";
}

std::span<const CudnnStatus> cudnn_statuses() { return k_status_rows; }

std::optional<CudnnStatus> find_cudnn_status(std::string_view name) {
  const auto key = status_key(name);
  for (const auto& row : k_status_rows)
    if (status_key(row.name) == key) return row;
  return std::nullopt;
}

std::optional<CudnnStatus> cudnn9_status(int code) {
  for (const auto& row : k_status_rows)
    if (row.v9_code == code && row.v78_code < 0) return row;
  for (const auto& row : k_status_rows)
    if (row.v9_code == code) return row;
  if (code >= 1000 && code < 6000) return cudnn9_status(code / 1000 * 1000);
  return std::nullopt;
}

std::vector<CudnnStatus> statuses_in(std::string_view line) {
  static const std::regex prefixed(R"(\b(?:CUDNN_)?STATUS_([A-Z][A-Z_]*[A-Z])|\bcudnnStatus([A-Z][A-Za-z]+))");
  std::vector<CudnnStatus> out;
  const std::string text(line);
  const bool cudnn_named = to_lower_ascii(text).find("cudnn") != std::string::npos;
  for (std::sregex_iterator it(text.begin(), text.end(), prefixed), end; it != end; ++it) {
    const auto& m = *it;
    if (!cudnn_named) continue;  // STATUS_X of another library (CUBLAS_STATUS_..., NVJPEG_STATUS_...) is not cuDNN's
    if (m.position(0) >= 1 && text[static_cast<std::size_t>(m.position(0)) - 1] == '_') continue;  // CUBLAS_STATUS_
    auto row = find_cudnn_status(m[1].matched ? m[1].str() : "cudnnStatus" + m[2].str());
    if (row && (out.empty() || out.back().name != row->name)) out.push_back(*row);
  }
  return out;
}

} // namespace cudnnctl
