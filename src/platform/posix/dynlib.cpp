#include "cudnnctl/platform/dynlib.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "child_exec.hpp"

namespace cudnnctl::platform {

Result<void*> load_library(const std::string& path_or_name) {
  void* h = dlopen(path_or_name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    log::debug("load library {}: failed: {}", path_or_name, e ? e : "unknown error");
    return fail(ErrorCode::io, e ? e : fmt::format("cannot load {}", path_or_name), "", path_or_name);
  }
  log::debug("load library {}: loaded", path_or_name);
  return h;
}

void* find_symbol(void* library, const char* name) { return dlsym(library, name); }

std::string self_executable() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "cudnnctl";
  return std::string(buf, static_cast<std::size_t>(n));
}

Result<ChildResult> run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& extra_env,
                              int timeout_ms) {
  log::debug("run {} (timeout {} ms{})", log::command_line(argv), timeout_ms, extra_env.empty() ? "" : fmt::format(", {} extra environment variables", extra_env.size()));
  const auto started = std::chrono::steady_clock::now();
  if (argv.empty()) return fail(ErrorCode::internal, "run_child: no program", "");
  const ChildExec image(argv, extra_env);
  // close-on-exec: a child another thread starts meanwhile does not inherit these ends (an inherited write
  // end would keep this child's output open until that other child exits)
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)), "");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(e)), "");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (const int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(e)), "");
  }
  if (pid == 0) {
    // only async-signal-safe calls from here on. The write ends are first copied above fd 2 (close-on-exec), so
    // neither can be fd 1 or 2 when the other is put there; dup2 gives the copies on 1 and 2 no close-on-exec.
    const int out_fd = ::fcntl(out_pipe[1], F_DUPFD_CLOEXEC, 3);
    const int err_fd = ::fcntl(err_pipe[1], F_DUPFD_CLOEXEC, 3);
    if (out_fd < 0 || err_fd < 0 || ::dup2(out_fd, STDOUT_FILENO) < 0 || ::dup2(err_fd, STDERR_FILENO) < 0) _exit(127);
    image.exec();
    _exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ChildResult r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const int n = ::poll(fds, 2, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = ::read(f.fd, buf, sizeof buf);
      if (got > 0) (f.fd == out_pipe[0] ? r.out : r.err).append(buf, static_cast<std::size_t>(got));
      else {
        ::close(f.fd);
        f.fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  log::debug("{}: exit code {}{}{} after {}, {} bytes on stdout, {} on stderr", argv[0], r.exit_code,
             r.signal ? fmt::format(", signal {}", r.signal) : "", r.timed_out ? ", timed out" : "", log::elapsed_ms(started), r.out.size(),
             r.err.size());
  return r;
}

} // namespace cudnnctl::platform
