#include "cudnnctl/platform/load_trace.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "child_exec.hpp"
#include "cudnnctl/platform/audit_cache.hpp"

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
  // the portable single-file build carries the module inside itself (audit_cache.hpp)
  if (has_embedded_audit_library()) return write_embedded_audit_library();
  return fail(ErrorCode::file_not_found, fmt::format("the audit library {} is not installed beside cudnnctl", CUDNNCTL_AUDIT_NAME),
              "reinstall cudnnctl (it installs lib/cudnnctl/libcudnnctl_audit.so), or set CUDNNCTL_AUDIT_LIB to its path");
}

namespace {

// A per-run value the audit library puts at the start of every line: 128 random bits, hex. The program never
// sees it in its output, so a line without it (anything the program wrote, by accident or on purpose) is not
// taken for a load.
std::string trace_token() {
  unsigned char bytes[16] = {};
  std::size_t have = 0;
  // the getrandom system call, not glibc's getrandom() (2.25): the portable build runs on glibc 2.17;
  // kernels before 3.17 have no such call, and then /dev/urandom gives the bytes
  while (have < sizeof bytes) {
    const long n = ::syscall(SYS_getrandom, bytes + have, sizeof bytes - have, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have < sizeof bytes) {
    if (std::ifstream urandom("/dev/urandom", std::ios::binary);
        urandom.read(reinterpret_cast<char*>(bytes), sizeof bytes))
      have = sizeof bytes;
  }
  std::string token;
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  return have == sizeof bytes ? token : std::string();
}

// The lines that carry the token, without it; every other line is dropped.
std::string authenticated_lines(const std::string& raw, const std::string& token) {
  const std::string prefix = token + "\t";
  std::string out;
  std::size_t at = 0;
  while (at < raw.size()) {
    auto end = raw.find('\n', at);
    if (end == std::string::npos) break;  // a line cut short is not a record
    if (raw.compare(at, prefix.size(), prefix) == 0) out.append(raw, at + prefix.size(), end + 1 - at - prefix.size());
    at = end + 1;
  }
  return out;
}

} // namespace

Result<TracedRun> run_with_load_trace(const std::vector<std::string>& argv, const std::string& audit_library,
                                      const std::vector<std::string>&) {
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

  const std::string token = trace_token();
  if (token.empty()) return fail(ErrorCode::io, "cannot make the trace's random token (neither getrandom nor /dev/urandom gave 16 bytes)", "");
  std::string audit = audit_library;
  if (const char* prev = std::getenv("LD_AUDIT"); prev && *prev) audit += std::string(":") + prev;

  const ChildExec image(argv, {{"LD_AUDIT", audit}, {"CUDNNCTL_TRACE_FILE", path}, {"CUDNNCTL_TRACE_TOKEN", token}});
  const std::string cannot_run = fmt::format("cudnnctl trace: cannot run {}: ", argv[0]);

  // While the command runs, Ctrl-C and friends reach it (same process group); cudnnctl stays to report.
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], std::strerror(e)), "");
  }
  if (pid == 0) {  // only async-signal-safe calls here: everything the child needs was built before the fork
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    image.exec();
    const int e = errno;
    const char* why = e == ENOENT ? "No such file or directory\n" : e == EACCES ? "Permission denied\n"
                    : e == ENOEXEC ? "Exec format error\n" : "cannot execute\n";
    (void)!::write(STDERR_FILENO, cannot_run.data(), cannot_run.size());
    (void)!::write(STDERR_FILENO, why, std::strlen(why));
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
  run.events = authenticated_lines(ss.str(), token);
  return run;
}

} // namespace cudnnctl::platform
