// The search step `cudnnctl trace` names for a DLL on Windows, told from the folder it was mapped from.
#include <catch2/catch.hpp>

#include "cudnnctl/platform/dll_search_step.hpp"

using namespace cudnnctl::platform;

namespace {
DllSearchPlaces places() {
  DllSearchPlaces p;
  p.application_folder = R"(C:\app)";
  p.system_folder = R"(C:\Windows\system32)";
  p.path_entries = {R"(C:\Users\me\bin)", R"("C:\Program Files\NVIDIA\CUDNN\v9.1\bin")", R"(D:\tools\)"};
  p.toolkit_bins = {R"(C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin)"};
  return p;
}
} // namespace

TEST_CASE("dll search step: each place of the Windows search order is named", "[dll_search_step]") {
  const auto p = places();
  CHECK(dll_search_step(R"(C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(dll_search_step(R"(C:\Windows\System32\nvcuda.dll)", p) == "System32");
  CHECK(dll_search_step(R"(C:\Program Files\NVIDIA\CUDNN\v9.1\bin\cudnn64_9.dll)", p) == "PATH");  // a quoted PATH entry
  CHECK(dll_search_step(R"(D:\tools\cublasLt64_12.dll)", p) == "PATH");                             // a trailing backslash
  CHECK(dll_search_step(R"(C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin\cublasLt64_12.dll)", p) == "toolkit bin");
  CHECK(dll_search_step(R"(C:\Python311\Lib\site-packages\torch\lib\cudnn64_9.dll)", p) == "unknown");
  CHECK(dll_search_step("cudnn64_9.dll", p) == "unknown");
}

TEST_CASE("dll search step: case, separators and the long-path prefix do not matter", "[dll_search_step]") {
  const auto p = places();
  CHECK(dll_search_step(R"(c:\APP\CUDNN64_9.DLL)", p) == "application folder");
  CHECK(dll_search_step("C:/app/cudnn64_9.dll", p) == "application folder");
  CHECK(dll_search_step(R"(\\?\C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(comparable_windows_folder(R"(\\?\UNC\server\share\x\)") == R"(\\server\share\x)");
  CHECK(comparable_windows_folder("C:") == comparable_windows_folder("C:\\"));
}

TEST_CASE("dll search step: the application folder comes before PATH when a folder is both", "[dll_search_step]") {
  auto p = places();
  p.path_entries.push_back(R"(C:\app)");
  p.toolkit_bins.push_back(R"(C:\Users\me\bin)");
  CHECK(dll_search_step(R"(C:\app\cudnn64_9.dll)", p) == "application folder");
  CHECK(dll_search_step(R"(C:\Users\me\bin\cudnn64_9.dll)", p) == "PATH");
}
