#include "cudnnctl/platform/load_trace.hpp"

// Windows: the command runs as a debuggee of cudnnctl (DEBUG_PROCESS: every process it starts is one too).
// The debug events name each image mapped (CREATE_PROCESS_DEBUG_EVENT: the .exe, LOAD_DLL_DEBUG_EVENT: each
// DLL, with a handle to its file) and each DLL unmapped; they become the event lines of the Linux audit
// library, so src/trace reports both alike. The loader does not say which search step found a DLL: it is
// told from the DLL's folder along the loader's order (platform/windows_search_order.hpp). Nothing of the program changes but that
// IsDebuggerPresent() is true and, as without a debugger, the normal (not the debug) heap is used.
#include <windows.h>
#include <tlhelp32.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

#include "cudnnctl/platform/windows_search_order.hpp"
#include "cudnnctl/platform/windows_command_line.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

namespace {

constexpr DWORD k_wx86_breakpoint = 0x4000001F;  // STATUS_WX86_BREAKPOINT: a 32-bit process's own first break

std::string lower_ascii(const std::string& s) { return to_lower_ascii(s); }

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// The libraries the trace reports, as the Linux audit library picks them: cuDNN, cuBLAS/cuBLASLt, NVRTC,
// cudart and the driver.
bool traced_name(const std::string& file) {
  const auto n = lower_ascii(file);
  for (const char* prefix : {"cudnn", "cublas", "nvrtc", "cudart", "nvcuda."})
    if (n.starts_with(prefix)) return true;
  return false;
}

// Tabs and line ends cannot occur in the fields of an event line: replaced by '?', as the audit library does.
std::string field(std::string s) {
  for (auto& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = '?';
  return s;
}

std::string without_long_prefix(const std::wstring& w) {
  if (w.rfind(L"\\\\?\\UNC\\", 0) == 0) return win::narrow(L"\\\\" + w.substr(8));
  if (w.rfind(L"\\\\?\\", 0) == 0) return win::narrow(w.substr(4));
  return win::narrow(w);
}

// The path of the file an image was mapped from, through the handle the debug event gives.
std::string path_of_handle(HANDLE file) {
  if (!file || file == INVALID_HANDLE_VALUE) return {};
  std::wstring buf(32768, L'\0');
  const DWORD n = GetFinalPathNameByHandleW(file, buf.data(), static_cast<DWORD>(buf.size()), FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  if (n == 0 || n >= buf.size()) return {};
  buf.resize(n);
  return without_long_prefix(buf);
}

// The fallback when there is no file handle: lpImageName is the address, in the debuggee, of a pointer to
// the name; either may be null (the first DLLs of a process have no name there).
std::string image_name(HANDLE process, void* address, WORD unicode) {
  if (!process || !address) return {};
  void* name = nullptr;
  SIZE_T got = 0;
  if (!ReadProcessMemory(process, address, &name, sizeof name, &got) || got != sizeof name || !name) return {};
  const std::size_t width = unicode ? 2 : 1;
  std::string bytes;
  for (std::size_t i = 0; i < 32768; ++i) {
    char ch[2] = {};
    if (!ReadProcessMemory(process, static_cast<char*>(name) + i * width, ch, width, &got) || got != width) return {};
    if (ch[0] == 0 && (width == 1 || ch[1] == 0)) break;
    bytes.append(ch, width);
  }
  std::wstring w;
  if (unicode) {
    w.resize(bytes.size() / 2);
    std::memcpy(w.data(), bytes.data(), w.size() * 2);
  } else if (!bytes.empty()) {
    w.resize(bytes.size());
    w.resize(static_cast<std::size_t>(MultiByteToWideChar(CP_ACP, 0, bytes.data(), static_cast<int>(bytes.size()), w.data(), static_cast<int>(w.size()))));
  }
  return without_long_prefix(w);
}

DWORD parent_pid_of(DWORD pid) {
  HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snap == INVALID_HANDLE_VALUE) return 0;
  PROCESSENTRY32W e{};
  e.dwSize = sizeof e;
  DWORD parent = 0;
  for (BOOL more = Process32FirstW(snap, &e); more; more = Process32NextW(snap, &e))
    if (e.th32ProcessID == pid) {
      parent = e.th32ParentProcessID;
      break;
    }
  CloseHandle(snap);
  return parent;
}

std::string environment_variable(const wchar_t* name) {
  const DWORD n = GetEnvironmentVariableW(name, nullptr, 0);
  if (n == 0) return {};
  std::wstring v(n, L'\0');
  v.resize(GetEnvironmentVariableW(name, v.data(), n));
  return win::narrow(v);
}

std::vector<std::string> path_entries() {
  const auto path = environment_variable(L"PATH");
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= path.size();) {
    const auto semi = std::min(path.find(';', start), path.size());
    if (semi > start) out.push_back(path.substr(start, semi - start));
    start = semi + 1;
  }
  return out;
}

// The places every process of the run shares: System32, the Windows folder, the current folder (the command
// starts in cudnnctl's), PATH; and the toolkit's DLL folders, which are on no search step unless a program adds them.
struct CommonPlaces {
  WindowsSearchPlaces search;
  std::vector<WindowsSearchFolder> toolkit_bins;  // told apart as "toolkit bin" after the search order
};

std::string system_folder(UINT (*get)(LPWSTR, UINT)) {
  wchar_t buf[MAX_PATH + 1];
  const UINT n = get(buf, MAX_PATH + 1);
  return n > 0 && n <= MAX_PATH ? win::narrow(std::wstring(buf, n)) : std::string();
}

CommonPlaces common_places(const std::vector<std::string>& toolkit_dll_dirs) {
  CommonPlaces p;
  p.search.system32 = system_folder(&GetSystemDirectoryW);
  p.search.windows_folder = system_folder(&GetWindowsDirectoryW);
  wchar_t cwd[MAX_PATH + 1];
  if (const DWORD n = GetCurrentDirectoryW(MAX_PATH + 1, cwd); n > 0 && n <= MAX_PATH) p.search.current_folder = win::narrow(std::wstring(cwd, n));
  p.search.path_entries = path_entries();
  for (const auto& b : toolkit_dll_dirs) p.toolkit_bins.push_back({b, WindowsSearchStep::added_folder});
  return p;
}

// The search order of a process whose .exe is in `app` (platform/windows_search_order), made once per process.
std::vector<WindowsSearchFolder> order_for(const CommonPlaces& common, const std::string& app) {
  auto places = common.search;
  places.application_folder = app;
  return windows_search_order(places);
}

// The step a DLL's folder stands for: "application folder", "System32", "PATH", ..., else "toolkit bin", else
// "unknown" (a full path given to LoadLibrary, a folder added with AddDllDirectory).
std::string step_of(const std::string& dll_path, const std::vector<WindowsSearchFolder>& order, const CommonPlaces& common) {
  if (const auto step = windows_search_step_of(dll_path, order)) return step_name(*step);
  return windows_search_step_of(dll_path, common.toolkit_bins) ? "toolkit bin" : "unknown";
}

struct Debuggee {
  HANDLE process = nullptr;  // the event's handle: the system closes it when the exit event is continued
  std::vector<WindowsSearchFolder> order;  // this process's search order
  std::map<std::uintptr_t, std::string> traced;  // base address -> path, of the traced DLLs mapped now
  bool first_break_seen = false, first_wx86_break_seen = false;
};

class Tracer {
public:
  Tracer(DWORD root, CommonPlaces common) : m_root(root), m_common(std::move(common)) {}

  /// Records one debug event and returns how to continue it.
  DWORD handle(const DEBUG_EVENT& ev) {
    switch (ev.dwDebugEventCode) {
    case CREATE_PROCESS_DEBUG_EVENT: return created(ev.dwProcessId, ev.u.CreateProcessInfo);
    case LOAD_DLL_DEBUG_EVENT: return loaded(ev.dwProcessId, ev.u.LoadDll);
    case UNLOAD_DLL_DEBUG_EVENT: {
      auto& d = m_live[ev.dwProcessId];
      const auto it = d.traced.find(reinterpret_cast<std::uintptr_t>(ev.u.UnloadDll.lpBaseOfDll));
      if (it != d.traced.end()) emit('U', ev.dwProcessId, it->second), d.traced.erase(it);
      return DBG_CONTINUE;
    }
    case EXCEPTION_DEBUG_EVENT: return exception(ev.dwProcessId, ev.u.Exception);
    case EXIT_PROCESS_DEBUG_EVENT:
      if (ev.dwProcessId == m_root) m_root_exited = true, m_exit_code = ev.u.ExitProcess.dwExitCode;
      m_live.erase(ev.dwProcessId);
      return DBG_CONTINUE;
    case OUTPUT_DEBUG_STRING_EVENT:  // OutputDebugString: meant for a debugger's log, shown nowhere without one
    default: return DBG_CONTINUE;
    }
  }

  bool root_exited() const { return m_root_exited; }
  DWORD exit_code() const { return m_exit_code; }
  const std::string& events() const { return m_events; }
  std::vector<DWORD> live() const {
    std::vector<DWORD> out;
    for (const auto& [pid, d] : m_live) out.push_back(pid);
    return out;
  }

private:
  void emit(char kind, DWORD pid, const std::string& a, const std::string& b = {}, const std::string& c = {}) {
    m_events += fmt::format("{}\t{}\t{}\t{}\t{}\n", kind, pid, field(a), field(b), field(c));
  }

  DWORD created(DWORD pid, const CREATE_PROCESS_DEBUG_INFO& info) {
    auto path = path_of_handle(info.hFile);
    if (path.empty()) path = image_name(info.hProcess, info.lpImageName, info.fUnicode);
    if (info.hFile) CloseHandle(info.hFile);
    auto& d = m_live[pid];
    d = Debuggee{};
    d.process = info.hProcess;
    d.order = order_for(m_common, folder_of(path));
    emit('P', pid, std::to_string(pid == m_root ? GetCurrentProcessId() : parent_pid_of(pid)), path);
    return DBG_CONTINUE;
  }

  DWORD loaded(DWORD pid, const LOAD_DLL_DEBUG_INFO& info) {
    auto& d = m_live[pid];
    auto path = path_of_handle(info.hFile);
    if (path.empty()) path = image_name(d.process, info.lpImageName, info.fUnicode);
    if (info.hFile) CloseHandle(info.hFile);
    if (path.empty() || !traced_name(base_name(path))) return DBG_CONTINUE;
    d.traced[reinterpret_cast<std::uintptr_t>(info.lpBaseOfDll)] = path;
    // the name the program asked for is not in the event: the request is unnamed, the step is the folder's
    emit('S', pid, "asked");
    emit('S', pid, step_of(path, d.order, m_common), path);
    emit('O', pid, path);
    return DBG_CONTINUE;
  }

  // The loader's own first breakpoint in each process is the debugger's to take; every other exception,
  // first or second chance, is the program's (its handlers run, or it ends as it would without a debugger).
  DWORD exception(DWORD pid, const EXCEPTION_DEBUG_INFO& info) {
    auto& d = m_live[pid];
    const DWORD code = info.ExceptionRecord.ExceptionCode;
    if (info.dwFirstChance && code == EXCEPTION_BREAKPOINT && !d.first_break_seen) return d.first_break_seen = true, DBG_CONTINUE;
    if (info.dwFirstChance && code == k_wx86_breakpoint && !d.first_wx86_break_seen) return d.first_wx86_break_seen = true, DBG_CONTINUE;
    return static_cast<DWORD>(DBG_EXCEPTION_NOT_HANDLED);
  }

  DWORD m_root;
  CommonPlaces m_common;
  std::map<DWORD, Debuggee> m_live;
  std::string m_events;
  bool m_root_exited = false;
  DWORD m_exit_code = 0;
};

// A bare program name is looked up as a shell looks it up: the current folder, then each PATH entry, ".exe"
// added when the name has no extension. (CreateProcessW alone would look in cudnnctl's own folder first.)
// Empty when not found there or when the name is a path: CreateProcessW then takes the command line as given.
std::wstring find_program(const std::string& name) {
  if (name.empty() || name.find_first_of("/\\:") != std::string::npos) return {};
  std::vector<std::string> dirs{"."};
  for (auto& d : path_entries()) dirs.push_back(std::move(d));
  const bool has_extension = name.find('.') != std::string::npos;
  for (auto dir : dirs) {
    std::erase(dir, '"');
    for (const auto& file : has_extension ? std::vector<std::string>{name} : std::vector<std::string>{name + ".exe", name}) {
      const auto candidate = win::widen(dir + "\\" + file);
      const DWORD attrs = GetFileAttributesW(candidate.c_str());
      if (attrs == INVALID_FILE_ATTRIBUTES || (attrs & FILE_ATTRIBUTE_DIRECTORY)) continue;
      wchar_t full[32768];
      const DWORD n = GetFullPathNameW(candidate.c_str(), 32768, full, nullptr);
      return n > 0 && n < 32768 ? std::wstring(full, n) : candidate;
    }
  }
  return {};
}

// Ctrl-C and Ctrl-Break reach the command (same console); cudnnctl stays to report. A handler, not
// SetConsoleCtrlHandler(nullptr, TRUE): that setting would be inherited by the command.
BOOL WINAPI stay_for_the_report(DWORD type) { return type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT ? TRUE : FALSE; }

void say(const std::string& text) {
  DWORD written = 0;
  WriteFile(GetStdHandle(STD_ERROR_HANDLE), text.data(), static_cast<DWORD>(text.size()), &written, nullptr);
}

} // namespace

// Windows needs no library in the command: the trace is cudnnctl's own debugger loop.
Result<std::string> find_audit_library() { return std::string(); }

Result<TracedRun> run_with_load_trace(const std::vector<std::string>& argv, const std::string&,
                                      const std::vector<std::string>& toolkit_dll_dirs) {
  if (argv.empty()) return fail(ErrorCode::usage, "no command to trace", "cudnnctl trace -- COMMAND [ARGS...]");
  std::wstring cmd = win::widen(windows_command_line(argv));
  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  for (HANDLE h : {si.hStdInput, si.hStdOutput, si.hStdError})
    if (h && h != INVALID_HANDLE_VALUE) SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  // a program started under a debugger gets Windows' debug heap (slower, other layout): not this one
  const bool heap_set = GetEnvironmentVariableW(L"_NO_DEBUG_HEAP", nullptr, 0) == 0 && SetEnvironmentVariableW(L"_NO_DEBUG_HEAP", L"1");
  SetConsoleCtrlHandler(stay_for_the_report, TRUE);
  PROCESS_INFORMATION pi{};
  const auto program = find_program(argv[0]);
  const BOOL started = CreateProcessW(program.empty() ? nullptr : program.c_str(), cmd.data(), nullptr, nullptr, TRUE, DEBUG_PROCESS, nullptr, nullptr, &si, &pi);
  const DWORD start_error = GetLastError();
  if (heap_set) SetEnvironmentVariableW(L"_NO_DEBUG_HEAP", nullptr);
  struct Restore {
    ~Restore() { SetConsoleCtrlHandler(stay_for_the_report, FALSE); }
  } restore;
  TracedRun run;
  if (!started) {
    say(fmt::format("cudnnctl trace: cannot run {}: {}\n", argv[0], win::error_text(start_error)));
    run.exit_code = start_error == ERROR_FILE_NOT_FOUND || start_error == ERROR_PATH_NOT_FOUND ? 127 : 126;
    return run;
  }
  CloseHandle(pi.hThread);
  DebugSetProcessKillOnExit(FALSE);  // should cudnnctl end first, the programs go on
  Tracer tracer(pi.dwProcessId, common_places(toolkit_dll_dirs));
  DEBUG_EVENT ev{};
  std::string loop_error;
  while (!tracer.root_exited()) {
    if (!WaitForDebugEvent(&ev, INFINITE)) {
      loop_error = win::error_text(GetLastError());
      break;
    }
    const DWORD how = tracer.handle(ev);
    ContinueDebugEvent(ev.dwProcessId, ev.dwThreadId, how);
  }
  // the command is done; the programs it started and left running go on without the debugger, as on Linux
  // (where the trace of a process that outlives the command is not read either)
  for (const DWORD pid : tracer.live()) DebugActiveProcessStop(pid);
  DWORD code = tracer.exit_code();
  if (!tracer.root_exited()) {
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &code);
  }
  CloseHandle(pi.hProcess);
  if (!loop_error.empty()) say(fmt::format("cudnnctl trace: the trace stopped early: {}\n", loop_error));
  run.exit_code = static_cast<int>(code);
  run.events = tracer.events();
  return run;
}

} // namespace cudnnctl::platform
