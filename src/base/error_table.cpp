#include "cudnnctl/base/error_table.hpp"

namespace cudnnctl {

namespace {
constexpr ExitRow k_exit_rows[] = {
#define CUDNNCTL_EXIT(name, number, summary, meaning) {ExitCode::name, #name, summary, meaning},
#include "cudnnctl/base/error_table.def"
};
} // namespace

std::span<const ExitRow> exit_rows() { return k_exit_rows; }

std::span<const ErrorCode> error_codes() { return detail::error_codes; }

} // namespace cudnnctl
