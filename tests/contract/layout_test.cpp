#include <catch2/catch.hpp>

#include <algorithm>

#include "cudnnctl/contract/layout.hpp"

using namespace cudnnctl;

namespace {
ExpectedLayout layout_of(const char* name) {
  const auto n = parse_archive_name(name);
  REQUIRE(n);
  return expected_layout(*n);
}
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
} // namespace

TEST_CASE("Windows DLL and import-library folders move with the version", "[layout]") {
  const auto v91 = layout_of("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  CHECK(v91.library_dir == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin");
  CHECK(v91.import_library_dir == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/lib/x64");
  CHECK(v91.license_file == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/LICENSE");
  CHECK(has(v91.library_files, "cudnn64_9.dll"));
  CHECK(has(v91.library_files, "cudnn_engines_runtime_compiled64_9.dll"));
  CHECK(v91.library_files.size() == 8);

  CHECK(layout_of("cudnn-windows-x86_64-9.18.0.1_cuda13-archive.zip").library_dir == "cudnn-windows-x86_64-9.18.0.1_cuda13-archive/bin/x64");
  CHECK(layout_of("cudnn-windows-x86_64-9.17.1.4_cuda12-archive.zip").library_dir == "cudnn-windows-x86_64-9.17.1.4_cuda12-archive/bin");
  CHECK(layout_of("cudnn-windows-x86_64-8.6.0.163_cuda11-archive.zip").import_library_dir == "cudnn-windows-x86_64-8.6.0.163_cuda11-archive/lib");
  CHECK(layout_of("cudnn-windows-x86_64-8.8.0.121_cuda12-archive.zip").import_library_dir == "cudnn-windows-x86_64-8.8.0.121_cuda12-archive/lib/x64");

  const auto v8 = layout_of("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip");
  CHECK(has(v8.library_files, "cudnn_cnn_infer64_8.dll"));
  CHECK(v8.library_files.size() == 7);
}

TEST_CASE("Linux archives keep libraries in lib/, legacy ones under cuda/", "[layout]") {
  const auto v9 = layout_of("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
  CHECK(v9.library_dir == "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib");
  CHECK(v9.import_library_dir.empty());
  CHECK(has(v9.library_files, "libcudnn_graph.so.9"));
  CHECK(has(v9.headers, "cudnn_version.h"));

  const auto legacy = layout_of("cudnn-11.2-linux-x64-v8.1.1.33.tgz");
  CHECK(legacy.top_folder == "cuda");
  CHECK(legacy.library_dir == "cuda/lib64");
  CHECK(layout_of("cudnn-10.1-linux-ppc64le-v7.6.5.32.tgz").library_dir == "cuda/lib");
  const auto legacy_win = layout_of("cudnn-10.2-windows10-x64-v7.6.5.32.zip");
  CHECK(legacy_win.library_dir == "cuda/bin");
  CHECK(legacy_win.import_library_dir == "cuda/lib/x64");
  CHECK(legacy_win.library_files == std::vector<std::string>{"cudnn64_7.dll"});
  CHECK(legacy_win.headers == std::vector<std::string>{"cudnn.h"});
}
