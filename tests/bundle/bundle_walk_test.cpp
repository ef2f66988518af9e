#include <catch2/catch.hpp>

#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/bundle/bundle_walk.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

namespace {

void put_file(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << "x";
}

std::vector<std::string> found_below(const fs::path& site) {
  std::vector<std::string> rel;
  for (const auto& d : find_bundle_dirs(site.string())) rel.push_back(fs::path(d).lexically_relative(site).generic_string());
  return rel;
}

} // namespace

TEST_CASE("bundle walk: a cuDNN at each place a framework or packager keeps it is found", "[bundle_walk]") {
  TempDir t;
  const auto site = t.path() / "site-packages";
  put_file(site / "torch" / "lib" / "libcudnn.so.9");                         // PyTorch's own copy (older wheels)
  put_file(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9");              // the nvidia-cudnn-cu12/-cu13 wheel
  put_file(site / "paddle" / "libs" / "libcudnn.so.8");                       // PaddlePaddle
  put_file(site / "onnxruntime" / "capi" / "libcudnn.so.9");                  // onnxruntime-gpu
  put_file(site / "jaxlib" / "cuda" / "libcudnn.so.9");                       // a jaxlib with its CUDA libraries
  put_file(site / "tensorflow" / "python" / "libcudnn.so.8");                 // tensorflow
  put_file(site / "mxnet_cu112.libs" / "libcudnn.so.8");                      // auditwheel's <pkg>.libs
  put_file(site / "torch" / "lib" / "win" / "cudnn64_9.dll");                 // a Windows torch/lib copied over
  put_file(site / "onnxruntime" / "capi" / "include_dir" / "libcudnn.so.9");  // a name only like a skipped one
  put_file(site / "pkg" / "pycache" / "libcudnn.so.9");
  put_file(site / "pkg" / "dist-info" / "libcudnn.so.9");
  put_file(site / "torch" / "include" / "ATen" / "x.h");  // a header tree beside lib/: not listed, hides nothing
  const std::vector<std::string> want{"jaxlib/cuda",         "mxnet_cu112.libs", "nvidia/cudnn/lib", "onnxruntime/capi", "onnxruntime/capi/include_dir",
                                      "paddle/libs",         "pkg/dist-info",    "pkg/pycache",      "tensorflow/python", "torch/lib",
                                      "torch/lib/win"};
  CHECK(found_below(site) == want);
}

TEST_CASE("bundle walk: a conda prefix's lib/ holds its cuDNN itself, and the pip wheel's five levels down", "[bundle_walk]") {
  TempDir t;
  const auto lib = t.path() / "envs" / "torch" / "lib";
  put_file(lib / "libcudnn.so.9");
  put_file(lib / "python3.11" / "site-packages" / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9");
  put_file(lib / "python3.11" / "site-packages" / "nvidia" / "cudnn" / "lib" / "deeper" / "libcudnn.so.9");  // six levels: too deep
  const auto found = find_bundle_dirs(lib.string());
  REQUIRE(found.size() == 2);
  CHECK(found[0] == lib.string());  // the site as it was named
  CHECK(fs::path(found[1]) == lib / "python3.11" / "site-packages" / "nvidia" / "cudnn" / "lib");
  // the conda Windows layout: Library\bin as the site
  const auto bin = t.path() / "win-env" / "Library" / "bin";
  put_file(bin / "cudnn64_9.dll");
  CHECK(find_bundle_dirs(bin.string()) == std::vector<std::string>{bin.string()});
}

TEST_CASE("bundle walk: __pycache__, *.dist-info, *.egg-info and include folders are not listed", "[bundle_walk]") {
  CHECK(bundle_walk_skips("__pycache__"));
  CHECK(bundle_walk_skips("torch-2.5.1.dist-info"));
  CHECK(bundle_walk_skips("nvidia_cudnn_cu12-9.1.0.70.dist-info"));
  CHECK(bundle_walk_skips("apex-0.1.egg-info"));
  CHECK(bundle_walk_skips("include"));
  for (const char* kept : {"lib", "libs", "capi", "bin", "Library", "torch", "nvidia", "cudnn", "mxnet_cu112.libs", "pycache", "dist-info", "include_dir",
                           "includes", "__pycache__x", "tests", "jaxlib", "tensorflow", "site-packages", "python3.11"})
    CHECK_FALSE(bundle_walk_skips(kept));

  TempDir t;
  const auto site = t.path() / "site";
  put_file(site / "pkg" / "__pycache__" / "libcudnn.so.9");
  put_file(site / "torch-2.5.1.dist-info" / "libcudnn.so.9");
  put_file(site / "apex-0.1.egg-info" / "libcudnn.so.9");
  put_file(site / "nvidia" / "cudnn" / "include" / "libcudnn.so.9");
  CHECK(found_below(site).empty());
  put_file(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9");
  CHECK(found_below(site) == std::vector<std::string>{"nvidia/cudnn/lib"});
}

TEST_CASE("bundle walk: folder links are not followed, a link to the site is", "[bundle_walk]") {
  TempDir t;
  const auto site = t.path() / "site";
  put_file(t.path() / "elsewhere" / "lib" / "libcudnn.so.9");
  fs::create_directories(site / "torch");
  fs::create_directory_symlink(t.path() / "elsewhere" / "lib", site / "torch" / "lib");
  put_file(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9");
  CHECK(found_below(site) == std::vector<std::string>{"nvidia/cudnn/lib"});
  fs::create_directory_symlink(site, t.path() / "site-link");
  const auto via_link = find_bundle_dirs((t.path() / "site-link").string());
  REQUIRE(via_link.size() == 1);
  CHECK(fs::path(via_link[0]) == t.path() / "site-link" / "nvidia" / "cudnn" / "lib");
  CHECK(find_bundle_dirs((t.path() / "missing").string()).empty());
  CHECK(find_bundle_dirs((site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9").string()).empty());  // a file, not a folder
}
