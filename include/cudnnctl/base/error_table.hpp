#pragma once
// The one exit-code table (base/error_table.def) as data, for what is generated from it: the table of
// docs/exit-codes.md and the man page's EXIT STATUS (app/generate_docs), and the tests that hold it against both.
#include <span>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct ExitRow {
  ExitCode code;
  std::string_view name;     // the enumerator, e.g. "io_error"
  std::string_view summary;  // one plain line (the man page)
  std::string_view meaning;  // Markdown (docs/exit-codes.md)
};

/// Every documented exit, in ascending order.
std::span<const ExitRow> exit_rows();

/// Every error code, in the table's order (the enum's).
std::span<const ErrorCode> error_codes();

} // namespace cudnnctl
