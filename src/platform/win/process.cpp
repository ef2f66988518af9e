#include "cudnnctl/platform/process.hpp"

#include <windows.h>

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "cudnnctl/platform/dynlib.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

Result<FileLock> FileLock::acquire(const std::string& path) {
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE)
    return fail(ErrorCode::io, fmt::format("cannot open the lock file '{}': {}", path, win::error_text(GetLastError())),
                "run from an elevated prompt when the toolkit is under Program Files", path);
  OVERLAPPED ov{};
  if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov)) {
    CloseHandle(h);
    return fail(ErrorCode::io, fmt::format("another cudnnctl run is changing this toolkit (it holds '{}')", path),
                "wait for it to finish, then run cudnnctl again", path);
  }
  return FileLock(reinterpret_cast<std::intptr_t>(h));
}

FileLock::FileLock(FileLock&& other) noexcept : m_handle(other.m_handle) { other.m_handle = -1; }

FileLock::~FileLock() {
  if (m_handle != -1) CloseHandle(reinterpret_cast<HANDLE>(m_handle));  // closing releases the lock
}

namespace {
volatile LONG g_caught = 0;
int g_guards = 0;
BOOL WINAPI note_console_event(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT && event != CTRL_CLOSE_EVENT) return FALSE;
  InterlockedExchange(&g_caught, event == CTRL_C_EVENT ? 2 : 15);  // reported like SIGINT / SIGTERM
  return TRUE;
}
} // namespace

InterruptGuard::InterruptGuard() {
  if (g_guards++ > 0) return;
  InterlockedExchange(&g_caught, 0);
  SetConsoleCtrlHandler(note_console_event, TRUE);
}

InterruptGuard::~InterruptGuard() {
  if (--g_guards > 0) return;
  SetConsoleCtrlHandler(note_console_event, FALSE);
}

int InterruptGuard::caught() { return static_cast<int>(g_caught); }

void InterruptGuard::deliver(int signal_number) {
  if (g_guards > 0) InterlockedExchange(&g_caught, signal_number);
  else ExitProcess(128 + static_cast<UINT>(signal_number));
}

void kill_self() {
  TerminateProcess(GetCurrentProcess(), 137);
  ExitProcess(137);
}

Result<std::string> run_capture(const std::vector<std::string>& argv, int timeout_ms) {
  CUDNNCTL_TRY_ASSIGN(auto r, run_child(argv, {}, timeout_ms));
  if (r.exit_code != 0) return fail(ErrorCode::io, fmt::format("'{}' failed (exit status {})", argv[0], r.exit_code), "");
  return r.out;
}

bool is_privileged() {
  HANDLE token = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return false;
  TOKEN_ELEVATION elevation{};
  DWORD size = 0;
  const bool ok = GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &size) && elevation.TokenIsElevated;
  CloseHandle(token);
  return ok;
}

std::string utc_now() {
  SYSTEMTIME t{};
  GetSystemTime(&t);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", t.wYear, t.wMonth, t.wDay, t.wHour, t.wMinute, t.wSecond);
}

std::string unique_id() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return fmt::format("{:x}-{}", ns, GetCurrentProcessId());
}

} // namespace cudnnctl::platform
