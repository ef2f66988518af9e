// The GPU code in the libraries (loader/fatbin_reader.hpp): which architectures the toolkit's cuDNN and the
// frameworks' own CUDA libraries carry (layer 2, no GPU needed), and whether each GPU the probe found can run
// them (layer 4): SASS built for its compute capability, or PTX the driver can compile for it.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/catalog/architecture_spans.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

std::string arch_list(const std::set<GpuArch>& archs, bool sass) {
  std::vector<std::string> names;
  for (const auto& a : archs) names.push_back(sass ? sass_name(a) : ptx_name(a));
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, " "));
}

// The libraries that carry GPU code (a fat binary with entries).
std::vector<const LibraryGpuCode*> with_code(const std::vector<LibraryGpuCode>& libs) {
  std::vector<const LibraryGpuCode*> out;
  for (const auto& l : libs)
    if (l.code && !l.code->entries.empty()) out.push_back(&l);
  return out;
}

// "SASS sm_75 sm_80; PTX compute_121" over several libraries: what every one carries, then what only some do.
std::string describe_libraries(const std::vector<const LibraryGpuCode*>& libs) {
  std::set<GpuArch> all_sass, all_ptx, common_sass, common_ptx;
  for (std::size_t i = 0; i < libs.size(); ++i) {
    const auto sass = libs[i]->code->sass(), ptx = libs[i]->code->ptx();
    all_sass.insert(sass.begin(), sass.end());
    all_ptx.insert(ptx.begin(), ptx.end());
    if (i == 0) {
      common_sass.insert(sass.begin(), sass.end());
      common_ptx.insert(ptx.begin(), ptx.end());
    }
    std::erase_if(common_sass, [&](const GpuArch& a) { return std::find(sass.begin(), sass.end(), a) == sass.end(); });
    std::erase_if(common_ptx, [&](const GpuArch& a) { return std::find(ptx.begin(), ptx.end(), a) == ptx.end(); });
  }
  std::set<GpuArch> some_sass;
  std::set_difference(all_sass.begin(), all_sass.end(), common_sass.begin(), common_sass.end(), std::inserter(some_sass, some_sass.end()));
  std::string out = fmt::format("SASS {}; PTX {}", arch_list(common_sass, true), arch_list(common_ptx, false));
  if (libs.size() > 1) out = "in every library: " + out;
  if (!some_sass.empty()) out += fmt::format("; in some libraries only: SASS {}", arch_list(some_sass, true));
  return out;
}

void push_unreadable(const std::vector<LibraryGpuCode>& libs, const char* id, Checks& out) {
  for (const auto& l : libs) {
    if (l.code) continue;
    Check c = make_check(id, 2, CheckStatus::warn, fmt::format("the GPU code of {} could not be read: {}", l.file, l.error));
    // unread is not proven damaged: the file may have a layout this reader does not know
    c.cause = "cudnnctl could not read its fat-binary section (.nv_fatbin / .nv_fatb): a layout it does not know, or a damaged file";
    c.fix = "check it with NVIDIA's `cuobjdump --list-elf` (from the nvidia-cuda-cuobjdump wheel): if cuobjdump lists its code, the file is "
            "fine and this is a gap in cudnnctl (please report it); if cuobjdump fails too, reinstall the library from its original archive or package";
    out.push_back(std::move(c));
  }
}

void check_files_gpu_code(const DoctorFacts& f, Checks& out) {
  const auto& g = f.gpu_code;
  if (!g.gathered || g.cudnn.empty()) return;
  push_unreadable(g.cudnn, "files.gpu_code", out);
  const auto libs = with_code(g.cudnn);
  if (libs.empty()) {
    out.push_back(make_check("files.gpu_code", 2, CheckStatus::skip, "none of the cuDNN libraries carries a fat binary (GPU code): nothing to compare GPUs with"));
    return;
  }
  out.push_back(make_check("files.gpu_code", 2, CheckStatus::pass,
                           fmt::format("GPU code of the {} cuDNN libraries with kernels: {}", libs.size(), describe_libraries(libs))));
}

void check_bundles_gpu_code(const DoctorFacts& f, Checks& out) {
  const auto& g = f.gpu_code;
  if (!g.gathered || g.frameworks.empty()) return;
  push_unreadable(g.frameworks, "bundles.gpu_code", out);
  for (const auto* l : with_code(g.frameworks))
    out.push_back(make_check("bundles.gpu_code", 2, CheckStatus::pass,
                             fmt::format("{}'s {}: {}", l->owner, l->file, describe_libraries({l}))));
}

// The libraries among `libs` with nothing that runs on `cc`.
std::vector<const LibraryGpuCode*> without_code_for(const std::vector<const LibraryGpuCode*>& libs, ComputeCapability cc) {
  std::vector<const LibraryGpuCode*> out;
  for (const auto* l : libs)
    if (code_fit(l->code->sass(), l->code->ptx(), cc).kind == CodeFit::Kind::none) out.push_back(l);
  return out;
}

std::string file_names(const std::vector<const LibraryGpuCode*>& libs) {
  std::vector<std::string> names;
  for (const auto* l : libs) names.push_back(l->file);
  return fmt::format("{}", fmt::join(names, ", "));
}

Check device_without_cudnn_code(const DoctorFacts& f, std::size_t i, const GpuDevice& d, ComputeCapability cc,
                                const std::vector<const LibraryGpuCode*>& libs, const std::vector<const LibraryGpuCode*>& missing) {
  Check c = make_check("device.gpu_code", 4, CheckStatus::fail,
                       fmt::format("GPU {} {} (compute {}) has no code in {}: {} carry {}, and none of it runs on {}", i, d.name, cc_text(cc),
                                   f.header ? "cuDNN " + f.header->text() : std::string("this cuDNN"), file_names(missing),
                                   describe_libraries(libs), cc_sm_name(cc)));
  c.cause = "a GPU runs SASS built for its own major and a minor no newer than its own (sm_XYa only on X.Y), or PTX for its compute "
            "capability or older that the driver compiles; these libraries have neither for this GPU (\"no kernel image is available "
            "for execution on the device\", CUDNN_STATUS_ARCH_MISMATCH)";
  const auto advice = architecture_span_advice(cc.major, cc.minor);
  c.fix = fmt::format("install a cuDNN release whose libraries carry SASS for {} or PTX for compute {} or older (`cudnnctl gpu-code "
                      "<library>` lists them{}), or use a GPU this release supports",
                      cc_sm_name(cc), cc_text(cc), advice ? "; " + *advice : std::string());
  return c;
}

void check_frameworks_on_device(const DoctorFacts& f, std::size_t i, const GpuDevice& d, ComputeCapability cc, Checks& out) {
  for (const auto* l : with_code(f.gpu_code.frameworks)) {
    if (code_fit(l->code->sass(), l->code->ptx(), cc).kind != CodeFit::Kind::none) {
      out.push_back(make_check("device.gpu_code_framework", 4, CheckStatus::pass,
                               fmt::format("GPU {} {} (compute {}): {}'s {} has code for it", i, d.name, cc_text(cc), l->owner, l->file)));
      continue;
    }
    Check c = make_check("device.gpu_code_framework", 4, CheckStatus::fail,
                         fmt::format("GPU {} {} (compute {}): this {} build has no kernels for {}: {} carries {}", i, d.name, cc_text(cc), l->owner,
                                     cc_sm_name(cc), l->file, describe_libraries({l})));
    c.cause = "the framework's own CUDA kernels were built for other GPU architectures; whatever cuDNN does, its operations fail "
              "with \"no kernel image is available for execution on the device\"";
    c.fix = fmt::format("install a {} build whose CUDA libraries carry code for {} (for PyTorch: a wheel built for a newer CUDA, "
                        "e.g. cu128 or later for RTX 50 / sm_120; an older one for GPUs a new build dropped)",
                        l->owner, cc_sm_name(cc));
    out.push_back(std::move(c));
  }
}

void check_device_gpu_code(const DoctorFacts& f, Checks& out) {
  const auto* g = f.gpus();
  if (!f.tk() || f.offline || !g || !g->driver_found || !f.gpu_code.gathered) return;
  const auto libs = with_code(f.gpu_code.cudnn);
  for (std::size_t i = 0; i < g->devices.size(); ++i) {
    const auto& d = g->devices[i];
    const auto& cc = d.cc;
    if (!libs.empty()) {
      const auto missing = without_code_for(libs, cc);
      if (!missing.empty()) out.push_back(device_without_cudnn_code(f, i, d, cc, libs, missing));
      else
        out.push_back(make_check("device.gpu_code", 4, CheckStatus::pass,
                                 fmt::format("GPU {} {} (compute {}): every cuDNN library with kernels has code for it", i, d.name, cc_text(cc))));
    }
    check_frameworks_on_device(f, i, d, cc, out);
  }
}

} // namespace

const std::vector<CheckSpec>& gpu_code_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.gpu_code", 2, need_gpu_code, &check_files_gpu_code, "the GPU architectures in the cuDNN libraries' fat binaries: SASS (sm_XY, sm_XYa, sm_XYf) and PTX, no GPU needed", ""},
      {"bundles.gpu_code", 2, need_bundles | need_gpu_code, &check_bundles_gpu_code, "the GPU architectures in the frameworks' own CUDA libraries beside their cuDNN (libtorch_cuda.so, torch_cuda.dll)", ""},
      {"device.gpu_code", 4, need_probe | need_gpu_code | need_bundles, &check_device_gpu_code, "each GPU's compute capability against the code in the cuDNN libraries and the frameworks' CUDA libraries: SASS that runs on it or PTX the driver can compile", "device.gpu_code_framework"},
  };
  return rows;
}

} // namespace cudnnctl
