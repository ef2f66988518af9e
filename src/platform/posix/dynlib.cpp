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
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
    return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)), "");
  const pid_t pid = ::fork();
  if (pid < 0) return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)), "");
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    for (const auto& [k, v] : extra_env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (argv[0].find('/') == std::string::npos) ::execvp(args[0], args.data());  // a bare name: looked up on PATH
    else ::execv(args[0], args.data());
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
