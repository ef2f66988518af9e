#pragma once
// Errors are values: a stable code (which fixes the exit code), a one-line message, the file it
// is about, and a hint that says how to fix it. One place (app/report) turns them into output.
#include <string>
#include <string_view>
#include <utility>

#include "cudnnctl/base/exit_code.hpp"
#include "cudnnctl/base/expected.hpp"

namespace cudnnctl {

enum class ErrorCode {
  internal,
  usage,
  name_empty,
  name_too_long,
  name_non_ascii,
  name_not_cudnn,
  name_sibling_product,
  name_installer,
  name_malformed,
  name_bad_version,
  name_unknown_platform,
  name_bad_extension,
  catalog_unreadable,
  catalog_invalid,
  file_not_found,
  io,
  hash_mismatch,
  hash_unknown,
  hash_bad_input,
  archive_not_archive,
  archive_corrupt,
  archive_hostile,
  archive_encoding,
  archive_layout,
  archive_too_large,
  incompatible,
  host_too_old,   // the archive's libraries need a newer glibc / libstdc++ than this host has
  input_invalid,  // a file named on the command line is not what the option needs (e.g. not a registry export)
  path_not_effective,  // path --apply wrote its change, but the loader still finds another cuDNN first
  bundle_refused,      // bundle swap/unbundle/restore refused with nothing changed (another major, older version, ...)
  unsafe_state,  // a state file or a toolkit folder leads outside the toolkit (a link, a forged path): refused, nothing touched
  manifest_refused,  // an NVIDIA release manifest (catalog update, or fetch of an unknown version) broke a rule: nothing kept
  interrupted,   // install/uninstall stopped by Ctrl-C or SIGTERM after rolling back every change
  no_gpu_code,   // install: the staged libraries carry no code (SASS or PTX) for a GPU of this machine
  no_fitting_release,  // install/fetch latest|9|9.19: no catalog archive of the request fits the toolkit, driver and GPUs
};
/// The last code; tests walk every code up to it.
constexpr ErrorCode k_last_error_code = ErrorCode::no_fitting_release;

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
  std::string hint;
  std::string path;  // the file or archive entry the error is about, if any
};

template <class T> using Result = Expected<T, Error>;

/// Builds an Unexpected<Error> for `return fail(...)` in functions returning Result<T>.
Unexpected<Error> fail(ErrorCode code, std::string message, std::string hint = {}, std::string path = {});

/// The stable, documented identifier of an error code, e.g. "name.unrecognised".
std::string_view error_id(ErrorCode code);

/// The process exit code an error leads to.
ExitCode exit_code_for(ErrorCode code);

} // namespace cudnnctl

// Error propagation, written once. In a function returning some Result<U>:
//   CUDNNCTL_TRY(check(x));                        // a Result<void> (or a value not needed): its error returns
//   CUDNNCTL_TRY_ASSIGN(auto name, parse(text));   // `name` is parse(text)'s value, or its error returns
#define CUDNNCTL_TRY_CONCAT_(a, b) a##b
#define CUDNNCTL_TRY_CONCAT(a, b) CUDNNCTL_TRY_CONCAT_(a, b)
#define CUDNNCTL_TRY(expr)                                                                  \
  do {                                                                                      \
    if (auto cudnnctl_try_result_ = (expr); !cudnnctl_try_result_)                          \
      return ::cudnnctl::Unexpected<::cudnnctl::Error>(std::move(cudnnctl_try_result_).error()); \
  } while (0)
#define CUDNNCTL_TRY_ASSIGN(decl, expr) CUDNNCTL_TRY_ASSIGN_(decl, expr, CUDNNCTL_TRY_CONCAT(cudnnctl_try_, __LINE__))
#define CUDNNCTL_TRY_ASSIGN_(decl, expr, tmp)                                      \
  auto tmp = (expr);                                                              \
  if (!tmp) return ::cudnnctl::Unexpected<::cudnnctl::Error>(std::move(tmp).error()); \
  decl = std::move(*tmp)
