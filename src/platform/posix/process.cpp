#include "cudnnctl/platform/process.hpp"

#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/permission_hint.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"

namespace cudnnctl::platform {

Result<FileLock> FileLock::acquire(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(ErrorCode::io, fmt::format("cannot open the lock file '{}': {}", path, std::strerror(errno)),
                errno == EACCES ? permission_hint() : "", path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return fail(ErrorCode::io, fmt::format("another cudnnctl run is changing this toolkit (it holds '{}')", path),
                "wait for it to finish, then run cudnnctl again", path);
  }
  const auto pid = fmt::format("{}\n", ::getpid());
  (void)!::ftruncate(fd, 0);
  (void)!::write(fd, pid.data(), pid.size());
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : m_handle(other.m_handle) { other.m_handle = -1; }

FileLock::~FileLock() {
  if (m_handle >= 0) ::close(static_cast<int>(m_handle));  // closing releases the flock
}

namespace {
volatile sig_atomic_t g_caught = 0;
int g_guards = 0;
constexpr int k_guarded[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3];
extern "C" void note_signal(int sig) { g_caught = sig; }
} // namespace

InterruptGuard::InterruptGuard() {
  if (g_guards++ > 0) return;
  g_caught = 0;
  struct sigaction sa {};
  sa.sa_handler = note_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; ++i) ::sigaction(k_guarded[i], &sa, &g_previous[i]);
}

InterruptGuard::~InterruptGuard() {
  if (--g_guards > 0) return;
  for (int i = 0; i < 3; ++i) ::sigaction(k_guarded[i], &g_previous[i], nullptr);
}

int InterruptGuard::caught() { return g_caught; }

void InterruptGuard::deliver(int signal_number) { ::raise(signal_number); }

void kill_self() {
  ::raise(SIGKILL);
  _exit(137);
}

Result<std::string> run_capture(const std::vector<std::string>& argv, int timeout_ms) {
  if (argv.empty()) return fail(ErrorCode::internal, "run_capture: no program", "");
  CUDNNCTL_TRY_ASSIGN(const auto r, run_child(argv, {}, timeout_ms));
  if (r.timed_out)
    return fail(ErrorCode::io, fmt::format("'{}' did not finish within {} s and was stopped", argv[0], timeout_ms / 1000), "");
  if (r.signal != 0 || r.exit_code != 0)
    return fail(ErrorCode::io,
                r.exit_code == 127 && r.out.empty() ? fmt::format("'{}' could not be run (not found)", argv[0])
                                                    : fmt::format("'{}' failed (exit status {})", argv[0], r.signal ? 128 + r.signal : r.exit_code),
                "");
  return r.out;
}

bool is_privileged() { return ::geteuid() == 0; }

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string unique_id() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return fmt::format("{:x}-{}", ns, ::getpid());
}

} // namespace cudnnctl::platform
