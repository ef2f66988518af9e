// The program `cudnnctl trace` runs in the Windows tests (a plain Win32 console program, no cudnnctl code).
//   trace_probe.exe EXIT_CODE STEP...
// First it sends a debug string and throws and catches a C++ exception (a tracer that mishandles
// exceptions or debug strings ends it there), then runs the steps in order:
//   load:NAME    LoadLibraryW(NAME); when it exports cudnnGetVersion, prints "NAME version V"
//   free:NAME    FreeLibrary of the handle load:NAME got
//   child:NAME   runs this program again as "trace_probe.exe 0 load:NAME" and waits for it
//   echo:TEXT    prints "[TEXT]" (the argument as this program received it)
//   crash:       writes through a null pointer (an access violation nothing handles)
// and exits with EXIT_CODE. A step that fails prints why and exits 90.
#include <windows.h>
#include <fcntl.h>
#include <io.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

namespace {
std::string utf8(const std::wstring& w) {
  if (w.empty()) return {};
  const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<std::size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr, nullptr);
  return s;
}

int child(const std::wstring& name) {
  wchar_t self[32768];
  GetModuleFileNameW(nullptr, self, 32768);
  std::wstring cmd = L"\"" + std::wstring(self) + L"\" 0 load:" + name;
  STARTUPINFOW si{};
  si.cb = sizeof si;
  PROCESS_INFORMATION pi{};
  if (!CreateProcessW(nullptr, cmd.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi)) return -1;
  WaitForSingleObject(pi.hProcess, INFINITE);
  DWORD code = 1;
  GetExitCodeProcess(pi.hProcess, &code);
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  return static_cast<int>(code);
}
} // namespace

int wmain(int argc, wchar_t** argv) {
  if (argc < 2) return 2;
  _setmode(_fileno(stdout), _O_BINARY);  // "\n" as written, not "\r\n": the tests compare the bytes
  OutputDebugStringW(L"trace_probe: started\n");
  try {
    throw std::runtime_error("caught by the program");
  } catch (const std::exception&) {
  }
  std::map<std::wstring, HMODULE> loaded;
  for (int i = 2; i < argc; ++i) {
    const std::wstring step = argv[i];
    const auto colon = step.find(L':');
    const std::wstring verb = step.substr(0, colon), arg = colon == std::wstring::npos ? L"" : step.substr(colon + 1);
    if (verb == L"load") {
      HMODULE h = LoadLibraryW(arg.c_str());
      if (!h) return std::printf("trace_probe: cannot load %s: error %lu\n", utf8(arg).c_str(), GetLastError()), 90;
      loaded[arg] = h;
      using GetVersion = std::size_t (*)();
      if (auto f = reinterpret_cast<GetVersion>(reinterpret_cast<void*>(GetProcAddress(h, "cudnnGetVersion"))))
        std::printf("%s version %zu\n", utf8(arg).c_str(), f());
    } else if (verb == L"free") {
      if (!loaded.contains(arg) || !FreeLibrary(loaded[arg])) return std::printf("trace_probe: cannot free %s\n", utf8(arg).c_str()), 90;
      loaded.erase(arg);
    } else if (verb == L"child") {
      if (const int code = child(arg); code != 0) return std::printf("trace_probe: the child exited with %d\n", code), 90;
    } else if (verb == L"crash") {
      *static_cast<volatile int*>(nullptr) = 1;
    } else if (verb == L"echo") {
      std::printf("[%s]\n", utf8(arg).c_str());
    } else {
      return std::printf("trace_probe: unknown step %s\n", utf8(step).c_str()), 90;
    }
    std::fflush(stdout);
  }
  return _wtoi(argv[1]);
}
