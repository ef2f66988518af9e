#pragma once
// The workload's tests run the real child process against the fake driver and cuDNN
// (tests/doctor/fakes): a request for them, and a CUDA toolkit holding the fake cuDNN for the CLI.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

namespace cudnnctl::testing {

inline const fs::path fakes_dir = CUDNNCTL_FAKES_DIR;

inline WorkloadRequest fake_request(bool fused = false) {
  WorkloadRequest r;
  r.cudnn_library = (fakes_dir / "libcudnn.so.9").string();
  r.driver_library = (fakes_dir / "libcuda.so.1").string();
  r.quick = true;
  r.fused = fused;
  return r;
}

/// A CUDA 12.4 toolkit below `base` whose cuDNN 9.1 is the fake one.
inline fs::path fake_cudnn_toolkit(const fs::path& base) {
  const auto root = linux_toolkit(base, "12.4");
  const auto lib = root / "targets/x86_64-linux/lib";
  fs::copy_file(fakes_dir / "libcudnn.so.9", lib / "libcudnn.so.9");
  fs::copy_file(fakes_dir / "libcudnn_graph.so.9", lib / "libcudnn_graph.so.9");
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  return root;
}

/// `ENV cudnnctl bench ARGS` on `toolkit` (from fake_cudnn_toolkit) with the fake driver: exit status, stdout.
inline std::pair<int, std::string> run_fake_bench(const fs::path& toolkit, const std::string& args, const std::string& env = "") {
  const auto out = (toolkit.parent_path() / "bench.out").string();
  const std::string cmd = env + " " + std::string(CUDNNCTL_BINARY) + " bench " + args + " --cuda-path '" + toolkit.string() +
                          "' --driver-library '" + (fakes_dir / "libcuda.so.1").string() + "' > '" + out + "'";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, ss.str()};
}

} // namespace cudnnctl::testing
