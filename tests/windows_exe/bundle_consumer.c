/* windows_exe.bundle's consumer: loads a torch\lib-like folder the way torch/__init__.py does on Windows
 * (_load_dll_libraries: os.add_dll_directory(torch\lib), then every torch\lib\*.dll with
 * LoadLibraryExW(dll, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR)), then
 * calls cudnnGetVersion of the cudnn64_9.dll it got. Prints the version on the first line and the loaded
 * module's path on the second.
 *   bundle_consumer.exe DIR        exit 0; 2 usage; 3 a DLL did not load; 4 no cudnn64_9.dll; 5 no symbol
 * Built with x86_64-w64-mingw32-gcc -municode by tests/windows_exe/bundle_scenario.py. */
#include <windows.h>
#include <stdio.h>
#include <wchar.h>

typedef size_t (*get_version_fn)(void);

int wmain(int argc, wchar_t** argv) {
  if (argc != 2) {
    fwprintf(stderr, L"usage: bundle_consumer DIR\n");
    return 2;
  }
  SetErrorMode(SEM_FAILCRITICALERRORS);  /* as torch does: no dialog box for a missing DLL */
  if (!AddDllDirectory(argv[1])) {
    fwprintf(stderr, L"AddDllDirectory(%ls) failed: %lu\n", argv[1], GetLastError());
    return 3;
  }
  wchar_t pattern[MAX_PATH * 2];
  swprintf(pattern, MAX_PATH * 2, L"%ls\\*.dll", argv[1]);
  WIN32_FIND_DATAW fd;
  HANDLE find = FindFirstFileW(pattern, &fd);
  if (find == INVALID_HANDLE_VALUE) {
    fwprintf(stderr, L"no DLL in %ls\n", argv[1]);
    return 4;
  }
  HMODULE cudnn = NULL;
  do {
    wchar_t path[MAX_PATH * 2];
    swprintf(path, MAX_PATH * 2, L"%ls\\%ls", argv[1], fd.cFileName);
    HMODULE h = LoadLibraryExW(path, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
    if (!h) {
      fwprintf(stderr, L"LoadLibraryExW(%ls) failed: %lu\n", path, GetLastError());
      FindClose(find);
      return 3;
    }
    if (_wcsicmp(fd.cFileName, L"cudnn64_9.dll") == 0) cudnn = h;
  } while (FindNextFileW(find, &fd));
  FindClose(find);
  if (!cudnn) {
    fwprintf(stderr, L"no cudnn64_9.dll in %ls\n", argv[1]);
    return 4;
  }
  get_version_fn get_version = (get_version_fn)(void*)GetProcAddress(cudnn, "cudnnGetVersion");
  if (!get_version) {
    fwprintf(stderr, L"cudnn64_9.dll has no cudnnGetVersion\n");
    return 5;
  }
  wchar_t loaded[MAX_PATH * 2];
  const DWORD n = GetModuleFileNameW(cudnn, loaded, MAX_PATH * 2);
  loaded[n < MAX_PATH * 2 ? n : MAX_PATH * 2 - 1] = 0;
  printf("%zu\n", get_version());
  fflush(stdout);
  /* the path as UTF-8, whatever the console code page */
  char utf8[MAX_PATH * 8];
  WideCharToMultiByte(CP_UTF8, 0, loaded, -1, utf8, sizeof utf8, NULL, NULL);
  printf("%s\n", utf8);
  return 0;
}
