#pragma once
// What a command's run ends with when it does not fail with an Error: one of the documented exits (success,
// or a command's own documented outcome such as doctor's 10 and 11), or the exit status of a child process that
// the command passes through as it is (trace's traced command; the internal children's protocol status). A
// child's status is its own number, not a row of the exit table: it is typed as such, never cast into ExitCode.
#include "cudnnctl/base/exit_code.hpp"

namespace cudnnctl {

/// A child process's own exit status (0-255; 128 + N for signal N, as a shell reports it).
struct ChildExit {
  int status = 0;
};

class CommandStatus {
public:
  constexpr CommandStatus(ExitCode code) : m_exit(to_int(code)) {}  // NOLINT: implicit, a command returns ExitCode::ok
  constexpr CommandStatus(ChildExit child) : m_exit(child.status), m_child(true) {}  // NOLINT

  /// The process exit code.
  constexpr int exit() const { return m_exit; }
  /// True when the exit is a child's status passed through, not a row of the exit table.
  constexpr bool from_child() const { return m_child; }

private:
  int m_exit = 0;
  bool m_child = false;
};

} // namespace cudnnctl
