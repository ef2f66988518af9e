#pragma once
// Every cudnnStatus_t name of cuDNN 7, 8 and 9: its number in each numbering, what it means, what kind of
// trouble it usually is, and the signature a message carrying only this status names. cuDNN 7/8 number
// 0..14 (14, VERSION_MISMATCH, is 8's); cuDNN 9 numbers category*1000 + sub-code and keeps the old names
// as aliases of new numbers (ALLOC_FAILED = 4003). The one owner of the names and numbers: explain decodes
// messages with it and gpu/status_names names the statuses the workload and the doctor meet.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

enum class StatusKind {
  success,
  setup,       // the installation: files, versions, driver, loader
  program,     // the calling program's arguments or graph: not a set-up problem
  resources,   // memory: not a set-up problem
  gpu,         // the GPU's architecture against this cuDNN
  unsupported, // cuDNN has no engine for this operation on this GPU
  unknown,     // cuDNN's own failure: the status alone does not tell
};

std::string_view status_kind_text(StatusKind k);

struct CudnnStatus {
  std::string_view name;       // "CUDNN_STATUS_ALLOC_FAILED"
  int v9_code = -1;            // cuDNN 9's number (an alias's number for a deprecated name), -1: 9 has no such name
  int v78_code = -1;           // cuDNN 7 and 8's number, -1: neither has it
  bool v8_only = false;        // VERSION_MISMATCH: 8 has it, 7 does not
  StatusKind kind = StatusKind::unknown;
  std::string_view meaning;
  std::string_view signature;  // what a message with only this status names
};

std::span<const CudnnStatus> cudnn_statuses();
/// The row of a status name (CUDNN_STATUS_X, STATUS_X or cudnnStatusX, any case), or nullopt.
std::optional<CudnnStatus> find_cudnn_status(std::string_view name);
/// The row of a cuDNN 9 number (its category's row for an unknown sub-code), or nullopt.
std::optional<CudnnStatus> cudnn9_status(int code);

/// The status names a line carries, in order: CUDNN_STATUS_X, "CUDNN: STATUS_X" (CUDA.jl), cudnnStatusX
/// (the Python wrappers' exceptions).
std::vector<CudnnStatus> statuses_in(std::string_view line);

} // namespace cudnnctl
