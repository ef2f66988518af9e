#include "cudnnctl/platform/dynlib.hpp"

#include <windows.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/windows_command_line.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

Result<void*> load_library(const std::string& path_or_name) {
  // A full path loads with the DLL's own folder searched for its dependencies (cuDNN loads its
  // sub-DLLs by bare name); a bare name follows the default safe search (application folder, System32, ...).
  const bool full = path_or_name.find_first_of("/\\") != std::string::npos;
  std::wstring w = win::widen(path_or_name);
  for (auto& c : w)
    if (c == L'/') c = L'\\';
  if (full) {
    // cuDNN opens its sub-DLLs by bare name later, from inside itself: their folder must stay searched
    const auto slash = w.find_last_of(L'\\');
    if (slash != std::wstring::npos) AddDllDirectory(w.substr(0, slash).c_str());
  }
  HMODULE h = LoadLibraryExW(w.c_str(), nullptr,
                             full ? (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) : LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
  if (!h) {
    const DWORD e = GetLastError();
    log::debug("load library {}: failed: {}", path_or_name, win::error_text(e));
    return fail(ErrorCode::io, fmt::format("{}: {}", path_or_name, win::error_text(e)),
                e == ERROR_MOD_NOT_FOUND ? "126: the DLL or one of the DLLs it imports was not found"
                : e == ERROR_BAD_EXE_FORMAT ? "193: a 32-bit or damaged DLL"
                : e == ERROR_PROC_NOT_FOUND ? "127: a DLL of another version was loaded first (a version mix)"
                                            : "",
                path_or_name);
  }
  log::debug("load library {}: loaded", path_or_name);
  return reinterpret_cast<void*>(h);
}

void* find_symbol(void* library, const char* name) {
  return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(library), name));
}

std::string self_executable() {
  wchar_t buf[32768];
  const DWORD n = GetModuleFileNameW(nullptr, buf, 32768);
  return win::narrow(std::wstring(buf, n));
}

namespace {
void drain(HANDLE pipe, std::string* into) {
  char buf[65536];
  DWORD got = 0;
  while (ReadFile(pipe, buf, sizeof buf, &got, nullptr) && got > 0) into->append(buf, got);
}
} // namespace

Result<ChildResult> run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& extra_env,
                              int timeout_ms) {
  log::debug("run {} (timeout {} ms{})", log::command_line(argv), timeout_ms,
             extra_env.empty() ? "" : fmt::format(", {} extra environment variables", extra_env.size()));
  const auto started = std::chrono::steady_clock::now();
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
  HANDLE out_r, out_w, err_r, err_w;
  if (!CreatePipe(&out_r, &out_w, &sa, 0) || !CreatePipe(&err_r, &err_w, &sa, 0))
    return fail(ErrorCode::io, "cannot create pipes: " + win::error_text(GetLastError()), "");
  SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0);
  std::wstring cmd = win::widen(windows_command_line(argv));
  for (const auto& [k, v] : extra_env) SetEnvironmentVariableW(win::widen(k).c_str(), win::widen(v).c_str());
  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdOutput = out_w;
  si.hStdError = err_w;
  si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  PROCESS_INFORMATION pi{};
  const BOOL ok = CreateProcessW(nullptr, cmd.data(), nullptr, nullptr, TRUE, CREATE_NO_WINDOW, nullptr, nullptr, &si, &pi);
  CloseHandle(out_w);
  CloseHandle(err_w);
  if (!ok) {
    CloseHandle(out_r);
    CloseHandle(err_r);
    return fail(ErrorCode::io, fmt::format("cannot start {}: {}", argv[0], win::error_text(GetLastError())), "");
  }
  ChildResult r;
  std::thread t_out(drain, out_r, &r.out), t_err(drain, err_r, &r.err);
  if (WaitForSingleObject(pi.hProcess, static_cast<DWORD>(timeout_ms)) == WAIT_TIMEOUT) {
    r.timed_out = true;
    TerminateProcess(pi.hProcess, 1);
    WaitForSingleObject(pi.hProcess, INFINITE);
  }
  t_out.join();
  t_err.join();
  DWORD code = 0;
  GetExitCodeProcess(pi.hProcess, &code);
  r.exit_code = static_cast<int>(code);
  // a process ended by an exception (cuDNN's abort, 0xC0000409 fast-fail) reads as a signal
  if (code >= 0xC0000000u || code == 3) r.signal = static_cast<int>(code);
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  CloseHandle(out_r);
  CloseHandle(err_r);
  log::debug("{}: exit code {}{} after {}, {} bytes on stdout, {} on stderr", argv[0], r.exit_code, r.timed_out ? ", timed out" : "",
             log::elapsed_ms(started), r.out.size(), r.err.size());
  return r;
}

} // namespace cudnnctl::platform
