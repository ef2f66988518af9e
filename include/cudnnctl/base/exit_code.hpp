#pragma once
// The documented process exit codes: one enumerator per exit row of the one table (base/error_table.def),
// which also generates docs/exit-codes.md's table and the man page's EXIT STATUS.

namespace cudnnctl {

enum class ExitCode : int {
#define CUDNNCTL_EXIT(name, number, summary, meaning) name = number,
#include "cudnnctl/base/error_table.def"
};

constexpr int to_int(ExitCode c) { return static_cast<int>(c); }

} // namespace cudnnctl
