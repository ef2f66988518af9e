// The Windows loader's search order (platform/windows_search_order): the model path, the doctor and trace share.
#include <catch2/catch.hpp>

#include "cudnnctl/platform/windows_search_order.hpp"

using namespace cudnnctl::platform;

namespace {
WindowsSearchPlaces places() {
  WindowsSearchPlaces p;
  p.application_folder = R"(C:\app)";
  p.windows_folder = R"(C:\Windows)";
  p.current_folder = R"(D:\work)";
  p.path_entries = {R"(C:\Users\me\bin)", R"("C:\Program Files\NVIDIA\CUDNN\v9.1\bin")", R"(D:\tools\)"};
  return p;
}

std::vector<std::string> steps(const std::vector<WindowsSearchFolder>& order) {
  std::vector<std::string> out;
  for (const auto& f : order) out.push_back(step_name(f.step) + " " + f.folder);
  return out;
}

std::string step_of(const std::string& dll, const WindowsSearchPlaces& p) {
  const auto s = windows_search_step_of(dll, windows_search_order(p));
  return s ? step_name(*s) : "unknown";
}
} // namespace

TEST_CASE("windows search order: the standard order with SafeDllSearchMode", "[windows_search_order]") {
  CHECK(steps(windows_search_order(places())) ==
        std::vector<std::string>{R"(application folder C:\app)", R"(System32 C:\Windows\System32)", R"(System folder C:\Windows\System)",
                                 R"(Windows folder C:\Windows)", R"(current folder D:\work)", R"(PATH C:\Users\me\bin)",
                                 R"(PATH C:\Program Files\NVIDIA\CUDNN\v9.1\bin)", R"(PATH D:\tools\)"});
}

TEST_CASE("windows search order: SetDllDirectory and LOAD_WITH_ALTERED_SEARCH_PATH", "[windows_search_order]") {
  auto p = places();
  p.added_folders = {R"(E:\added)"};  // SetDllDirectory: after the application folder, and no current folder
  auto s = steps(windows_search_order(p));
  REQUIRE(s.size() == 8);
  CHECK(s[1] == R"(added folder E:\added)");
  CHECK(std::find(s.begin(), s.end(), R"(current folder D:\work)") == s.end());
  p.added_folders.clear();
  p.dll_folder = R"(C:\cudnn\bin)";  // the loading DLL's folder in place of the application's
  s = steps(windows_search_order(p));
  CHECK(s[0] == R"(the DLL's own folder C:\cudnn\bin)");
  CHECK(std::find(s.begin(), s.end(), R"(application folder C:\app)") == s.end());
}

TEST_CASE("windows search order: LOAD_LIBRARY_SEARCH_DEFAULT_DIRS searches no PATH and no current folder", "[windows_search_order]") {
  auto p = places();
  p.default_dirs = true;
  p.dll_folder = R"(C:\venv\Lib\site-packages\torch\lib)";
  p.added_folders = {R"(C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin)"};
  CHECK(steps(windows_search_order(p)) ==
        std::vector<std::string>{R"(the DLL's own folder C:\venv\Lib\site-packages\torch\lib)", R"(application folder C:\app)",
                                 R"(added folder C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin)", R"(System32 C:\Windows\System32)"});
  CHECK(step_of(R"(C:\Users\me\bin\cudnn64_9.dll)", p) == "unknown");  // on PATH, but PATH is not searched
}

TEST_CASE("windows search order: each place a loaded DLL's folder stands for is named", "[windows_search_order]") {
  const auto p = places();
  CHECK(step_of(R"(C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(step_of(R"(C:\Windows\System32\nvcuda.dll)", p) == "System32");
  CHECK(step_of(R"(C:\Windows\cudnn64_9.dll)", p) == "Windows folder");
  CHECK(step_of(R"(D:\work\cudnn64_9.dll)", p) == "current folder");
  CHECK(step_of(R"(C:\Program Files\NVIDIA\CUDNN\v9.1\bin\cudnn64_9.dll)", p) == "PATH");  // a quoted PATH entry
  CHECK(step_of(R"(D:\tools\cublasLt64_12.dll)", p) == "PATH");                             // a trailing backslash
  CHECK(step_of(R"(C:\Python311\Lib\site-packages\torch\lib\cudnn64_9.dll)", p) == "unknown");
  CHECK(step_of("cudnn64_9.dll", p) == "unknown");
}

TEST_CASE("windows search order: case, separators and the long-path prefix do not matter", "[windows_search_order]") {
  const auto p = places();
  CHECK(step_of(R"(c:\APP\CUDNN64_9.DLL)", p) == "application folder");
  CHECK(step_of("C:/app/cudnn64_9.dll", p) == "application folder");
  CHECK(step_of(R"(\\?\C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(comparable_windows_folder(R"(\\?\UNC\server\share\x\)") == R"(\\server\share\x)");
  CHECK(comparable_windows_folder("C:") == comparable_windows_folder("C:\\"));
}

TEST_CASE("windows search order: the first step that names a folder counts", "[windows_search_order]") {
  auto p = places();
  p.path_entries = {R"(C:\app)", R"(C:\Users\me\bin)"};
  const auto order = windows_search_order(p);
  CHECK(std::count_if(order.begin(), order.end(), [](const auto& f) { return f.folder == R"(C:\app)"; }) == 2);
  CHECK(step_of(R"(C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(step_of(R"(C:\Users\me\bin\cudnn64_9.dll)", p) == "PATH");
}
