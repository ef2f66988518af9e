#include "cudnnctl/platform/load_trace.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#ifndef CUDNNCTL_AUDIT_NAME
#define CUDNNCTL_AUDIT_NAME "libcudnnctl_audit.so"
#endif

namespace cudnnctl::platform {

namespace fs = std::filesystem;

Result<std::string> find_audit_library() {
  if (const char* v = std::getenv("CUDNNCTL_AUDIT_LIB"); v && *v) {
    if (fs::is_regular_file(v)) return std::string(v);
    return fail(ErrorCode::file_not_found, fmt::format("CUDNNCTL_AUDIT_LIB names {}, which is not a file", v),
                "unset it, or point it at libcudnnctl_audit.so", v);
  }
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    const auto dir = exe.parent_path();
    candidates = {dir / CUDNNCTL_AUDIT_NAME, dir / ".." / "lib" / "cudnnctl" / CUDNNCTL_AUDIT_NAME,
                  dir / ".." / "lib64" / "cudnnctl" / CUDNNCTL_AUDIT_NAME,
                  dir / ".." / "lib" / "x86_64-linux-gnu" / "cudnnctl" / CUDNNCTL_AUDIT_NAME,
                  dir / ".." / "lib" / "aarch64-linux-gnu" / "cudnnctl" / CUDNNCTL_AUDIT_NAME};
  }
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec).string();
  return fail(ErrorCode::file_not_found, fmt::format("the audit library {} is not installed beside cudnnctl", CUDNNCTL_AUDIT_NAME),
              "reinstall cudnnctl (it installs lib/cudnnctl/libcudnnctl_audit.so), or set CUDNNCTL_AUDIT_LIB to its path");
}

Result<TracedRun> run_with_load_trace(const std::vector<std::string>& argv, const std::string& audit_library) {
  if (argv.empty()) return fail(ErrorCode::usage, "no command to trace", "cudnnctl trace -- COMMAND [ARGS...]");
  const char* tmpdir = std::getenv("TMPDIR");
  std::string path = fmt::format("{}/cudnnctl-trace-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return fail(ErrorCode::io, fmt::format("cannot create the trace file {}: {}", path, std::strerror(errno)), "set TMPDIR to a writable folder");
  ::close(fd);
  struct Cleanup {
    std::string p;
    ~Cleanup() { ::unlink(p.c_str()); }
  } cleanup{path};

  std::string audit = audit_library;
  if (const char* prev = std::getenv("LD_AUDIT"); prev && *prev) audit += std::string(":") + prev;

  // While the command runs, Ctrl-C and friends reach it (same process group); cudnnctl stays to report.
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const pid_t pid = ::fork();
  if (pid < 0) return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)), "");
  if (pid == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    ::setenv("LD_AUDIT", audit.c_str(), 1);
    ::setenv("CUDNNCTL_TRACE_FILE", path.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    const int e = errno;
    const auto msg = fmt::format("cudnnctl trace: cannot run {}: {}\n", argv[0], std::strerror(e));
    (void)!::write(STDERR_FILENO, msg.data(), msg.size());
    _exit(e == ENOENT ? 127 : 126);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  TracedRun run;
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) run.signal = WTERMSIG(status), run.exit_code = 128 + run.signal;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  run.events = ss.str();
  return run;
}

} // namespace cudnnctl::platform
