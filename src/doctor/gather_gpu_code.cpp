// The GPU code the toolkit's cuDNN carries, and the frameworks' own CUDA libraries found beside the bundles'
// cuDNN (libtorch_cuda.so, torch_cuda.dll): their fat binaries read through the DoctorSystem seam, headers only.
#include <algorithm>

#include "cudnnctl/doctor/file_snapshot.hpp"
#include "cudnnctl/doctor/gather.hpp"

namespace cudnnctl {

namespace {

LibraryGpuCode read_library_code(DoctorSystem& sys, const std::string& path, std::string file, std::string owner) {
  LibraryGpuCode out{std::move(file), std::move(owner), std::nullopt, {}};
  auto code = sys.read_gpu_code(path);
  if (code) out.code = std::move(*code);
  else out.error = code.error().message;
  return out;
}

// Where a framework keeps its own CUDA kernels, for a bundle: PyTorch's torch/lib holds cuDNN's DLLs on
// Windows (the bundle's own folder); a pip wheel's nvidia/cudnn/lib sits in the same site as torch/lib.
std::vector<std::string> framework_library_candidates(const Bundle& b) {
  std::vector<std::string> dirs{b.dir};
  if (b.owner && !b.owner->site.empty()) dirs.push_back(join_path(join_path(b.owner->site, "torch"), "lib"));
  std::vector<std::string> out;
  for (const auto& d : dirs)
    for (const char* name : {"libtorch_cuda.so", "torch_cuda.dll"}) out.push_back(join_path(d, name));
  return out;
}

} // namespace

void gather_cudnn_gpu_code(DoctorFacts& f, unsigned needs, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || !f.major || !(needs & need_gpu_code)) return;
  auto& g = f.gpu_code;
  g.gathered = true;
  for (const auto& n : f.lib_names) {
    const auto c = classify_cudnn_file(n, t->os);
    if (!c || !c->full_version.empty() || c->major != *f.major) continue;  // one name per library
    g.cudnn.push_back(read_library_code(sys, join_path(f.runtime_dir, n), n, ""));
  }
}

void gather_framework_gpu_code(DoctorFacts& f, unsigned needs, DoctorSystem& sys) {
  if (!f.tk() || !f.major || !(needs & need_gpu_code)) return;
  auto& g = f.gpu_code;
  std::vector<std::string> seen;
  for (const auto& b : f.bundles().bundles)
    for (const auto& path : framework_library_candidates(b)) {
      if (std::find(seen.begin(), seen.end(), path) != seen.end() || !sys.exists(path) || sys.is_dir(path)) continue;
      seen.push_back(path);
      g.frameworks.push_back(read_library_code(sys, path, path, "PyTorch"));
    }
}

} // namespace cudnnctl
