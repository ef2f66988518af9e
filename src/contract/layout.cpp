#include "cudnnctl/contract/layout.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

std::vector<std::string> sub_library_names(unsigned major) {
  if (major >= 9)
    return {"cudnn", "cudnn_adv", "cudnn_cnn", "cudnn_engines_precompiled", "cudnn_engines_runtime_compiled",
            "cudnn_graph", "cudnn_heuristic", "cudnn_ops"};
  if (major == 8)
    return {"cudnn", "cudnn_adv_infer", "cudnn_adv_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_ops_infer",
            "cudnn_ops_train"};
  return {"cudnn"};
}

// The sub-libraries a 9.x release has, by version. cudnn_engines_tensor_ir from 9.20: 9.20's libcudnn_graph opens it
// by name, and the nvidia-cudnn-cu13 9.20.0.48 wheel that lacked it made programs take another release's copy
// (pytorch/pytorch#188892; the 9.21.0.82 wheel and later ship it). cudnn_ext from 9.22: the file list of the
// nvidia-cudnn-cu13 9.22.0.52 manylinux x86_64 wheel on PyPI (9.21.1.3's has none; 9.23.0.39, 9.24.0.43 and
// 9.28.1.4 keep both).
std::vector<std::string> sub_library_names(const Version& v) {
  auto names = sub_library_names(v.major());
  if (v.major() == 9 && v.count >= 2) {
    if (v.minor() >= 20) names.push_back("cudnn_engines_tensor_ir");
    if (v.minor() >= 22) names.push_back("cudnn_ext");
    std::sort(names.begin(), names.end());
  }
  return names;
}

const std::vector<WindowsMachine>& windows_machines() {
  static const std::vector<WindowsMachine> rows{{Arch::x86_64, "x64", 0x8664}, {Arch::arm64, "arm64", 0xAA64}};
  return rows;
}

const WindowsMachine& windows_machine(Arch arch) {
  for (const auto& m : windows_machines())
    if (m.arch == arch) return m;
  return windows_machines().front();
}

std::vector<std::string> windows_dll_dirs() {
  std::vector<std::string> dirs;
  for (const auto& m : windows_machines()) dirs.push_back(fmt::format("bin/{}", m.folder));
  dirs.push_back("bin");
  return dirs;
}

const WindowsMachine& windows_machine_of_dll_dir(std::string_view dll_dir) {
  auto d = to_lower_ascii(dll_dir);
  std::replace(d.begin(), d.end(), '\\', '/');
  while (!d.empty() && d.back() == '/') d.pop_back();
  for (const auto& m : windows_machines())
    if (d.ends_with("/" + std::string(m.folder)) || d == m.folder) return m;
  return windows_machines().front();
}

std::string windows_lib_dir(const WindowsMachine& machine) { return fmt::format("lib/{}", machine.folder); }

std::vector<std::string> release_sub_libraries(unsigned major, unsigned minor) {
  return sub_library_names(Version{{major, minor, 0, 0}, 2});
}

std::string library_file_name(Os os, std::string_view sub_library, unsigned major) {
  if (os == Os::windows) return fmt::format("{}64_{}.dll", sub_library, major);
  if (os == Os::macos) return fmt::format("lib{}.{}.dylib", sub_library, major);
  return fmt::format("lib{}.so.{}", sub_library, major);
}

ExpectedLayout expected_layout(const ArchiveName& name) {
  ExpectedLayout l;
  const auto& v = name.version;
  const unsigned major = v.major();
  const bool windows = name.os == Os::windows;
  l.top_folder = name.top_folder();
  const std::string root = l.top_folder + "/";
  l.sub_libraries = sub_library_names(v);
  for (const auto& s : l.sub_libraries) l.library_files.push_back(library_file_name(name.os, s, major));

  if (name.era == NamingEra::legacy) {
    l.include_dir = root + "include";
    l.license_file = root + "NVIDIA_SLA_cuDNN_Support.txt";
    if (windows) {
      l.library_dir = root + "bin";
      l.import_library_dir = root + "lib/x64";
    } else {
      l.library_dir = root + (name.arch == Arch::ppc64le ? "lib" : "lib64");
      if (name.arch == Arch::ppc64le) l.notes.push_back("legacy ppc64le tarballs used cuda/lib, not cuda/lib64");
    }
  } else {
    l.include_dir = root + "include";
    l.license_file = root + "LICENSE";
    if (windows) {
      const auto& machine = windows_machine(name.arch);
      const bool arm64 = machine.arch == Arch::arm64;
      const bool bin_machine = arm64 || major > 9 || (major == 9 && v.minor() >= 18);
      l.library_dir = root + (bin_machine ? fmt::format("bin/{}", machine.folder) : "bin");
      const bool lib_machine = major > 8 || (major == 8 && v.minor() >= 8);
      l.import_library_dir = root + (lib_machine ? windows_lib_dir(machine) : "lib");
      if (arm64)
        l.notes.push_back("the windows-arm64 zips (cuDNN 9.27 on, CUDA 13) keep their DLLs in bin\\arm64\\; lib\\arm64\\ "
                          "for the import libraries is assumed from the x64 zips' lib\\x64\\ (the archive's listing decides)");
      else if (bin_machine) l.notes.push_back("from cuDNN 9.18 the Windows zips keep their DLLs in bin\\x64\\, not bin\\");
      if (!lib_machine) l.notes.push_back("cuDNN 8.3-8.7 Windows zips keep import libraries in lib\\ (lib\\x64\\ from 8.8)");
      if (major == 8) l.notes.push_back("cuDNN 8.x on Windows needs zlibwapi.dll (x64), which the archive does not ship");
    } else {
      l.library_dir = root + "lib";
      l.notes.push_back("Linux archives keep libraries in lib/ (not lib64/) with symlink chains libX.so -> libX.so.N -> "
                        "libX.so.N.M.P; copy them as symlinks");
    }
  }
  if (major >= 8) {
    // headers are named after the API groups, not after the engine libraries
    if (major >= 9) {
      l.headers = {"cudnn.h", "cudnn_adv.h", "cudnn_backend.h", "cudnn_cnn.h", "cudnn_graph.h", "cudnn_ops.h", "cudnn_version.h"};
      // the include lists of NVIDIA's nvidia-cudnn-cu13 wheels on PyPI: 9.22.0.52 adds cudnn_subquadratic_ops.h,
      // 9.26.0.51 cudnn_gnn_ops.h (9.21.1.3 and 9.25.1.1 have neither and the first only)
      if (major > 9 || v.minor() >= 22) l.headers.push_back("cudnn_subquadratic_ops.h");
      if (major > 9 || v.minor() >= 26) l.headers.push_back("cudnn_gnn_ops.h");
      std::sort(l.headers.begin(), l.headers.end());
    }
    else
      l.headers = {"cudnn.h", "cudnn_adv_infer.h", "cudnn_adv_train.h", "cudnn_backend.h", "cudnn_cnn_infer.h",
                   "cudnn_cnn_train.h", "cudnn_ops_infer.h", "cudnn_ops_train.h", "cudnn_version.h"};
  } else {
    l.headers = {"cudnn.h"};
    l.notes.push_back("cuDNN 7 and earlier keep the version macros in cudnn.h (there is no cudnn_version.h)");
  }
  if (major == 9 && v.minor() >= 20)
    l.notes.push_back("9.20 added cudnn_engines_tensor_ir and 9.22 cudnn_ext: a copy of this release without them is incomplete, and the "
                      "loader takes them from another cuDNN (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)");
  return l;
}

} // namespace cudnnctl
