#pragma once
// CUDA's own error tables: every cudaError_t (runtime API) and CUresult (driver API) name of CUDA 11, 12 and 13
// with its number in each major, read from NVIDIA's headers into data/cuda-errors.json (tools/build_cuda_errors.py,
// embedded), and what each says about a set-up: the signature it names, or the kind of trouble it is when it is
// not a set-up problem. cuda_errors_in reads the names and numbers a line carries in the wordings programs use.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

enum class CudaApi { runtime, driver };

enum class CudaErrorKind {
  setup,    // a set-up cause: `signature` names it
  kernel,   // a kernel of the program faulted (illegal address, assertion, launch failure): not a set-up problem
  memory,   // out of memory: not a set-up problem
  program,  // the program's own call or configuration (a device number it does not have): not a set-up problem
  unknown,  // the error alone does not tell
};

struct CudaError {
  std::string_view name;        // "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE"
  CudaApi api = CudaApi::runtime;
  int codes[3] = {-1, -1, -1};  // its number in CUDA 11, 12, 13 (-1: that major has no such name)
  CudaErrorKind kind = CudaErrorKind::unknown;
  std::string_view signature;   // the failure signature a message with only this error names (setup, kernel, memory)
  std::string_view meaning;     // what it says about the set-up, or that it is not a set-up problem
  std::string_view says;        // cudaGetErrorString's text, may be empty
  /// Its number in the newest major that has it.
  int code() const;
};

std::span<const CudaError> cuda_errors();
/// The row of a name (cudaErrorX or CUDA_ERROR_X, any case), or nullptr.
const CudaError* find_cuda_error(std::string_view name);
/// The row of a number of one API (CUDA 11-13 numbering: the numbers did not change between them), or nullptr.
const CudaError* cuda_error_by_code(CudaApi api, int code);
/// What is wrong with a table in data/cuda-errors.json's format, or nothing when it is sound.
std::optional<std::string> cuda_error_table_problem(std::string_view json_text);

/// One CUDA error a line carries: by name, by cudaGetErrorString's text, or by a number in a wording that says
/// which API it is ("code=803(", "(803 vs. 0)", "CUDA error(700)", "cuda runtime error (59)", "CUDA failure 35:",
/// "Error 804:", "CudaAPIError: [34]"). A number of CUDA 10.0 or older (38, 59, 77: renumbered in 10.1) is
/// decided by the text beside it; alone it decodes to nothing.
struct CudaErrorMention {
  const CudaError* error = nullptr;
  int number = -1;         // the number the line gives, -1: none
  bool old_numbering = false;  // the number is not this error's number in CUDA 11-13 (CUDA 10.0 or older)
  std::string said;        // how the line names it: "cudaErrorNoDevice", "error 803", "the text 'unknown error'"
};

std::vector<CudaErrorMention> cuda_errors_in(std::string_view line);

} // namespace cudnnctl
