#pragma once
// Errors are values: a stable code (which fixes the exit code), a one-line message, the file it
// is about, and a hint that says how to fix it. One place (app/report) turns them into output.
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "cudnnctl/base/exit_code.hpp"
#include "cudnnctl/base/expected.hpp"

namespace cudnnctl {

// One enumerator per error row of the one table (base/error_table.def): its id, exit and meaning are there.
enum class ErrorCode {
#define CUDNNCTL_ERROR(code, id, exit, meaning) code,
#include "cudnnctl/base/error_table.def"
};
namespace detail {
constexpr ErrorCode error_codes[] = {
#define CUDNNCTL_ERROR(code, id, exit, meaning) ErrorCode::code,
#include "cudnnctl/base/error_table.def"
};
} // namespace detail
/// The last code; tests walk every code up to it.
constexpr ErrorCode k_last_error_code = std::end(detail::error_codes)[-1];

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

/// What an error means, in one line (its row's meaning: docs/exit-codes.md lists it).
std::string_view error_meaning(ErrorCode code);

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
