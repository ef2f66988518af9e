#pragma once
// Fake CUDA toolkit trees in temporary folders, in the layouts NVIDIA's installers lay out, and a
// snapshot of a tree (every path with its content hash or link target) to compare before and after.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "cudnnctl/base/sha256.hpp"

namespace cudnnctl::testing {

namespace fs = std::filesystem;

inline void put(const fs::path& p, const std::string& text = "x") {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

/// Windows layout: version.json, bin\ (or bin\x64\ for CUDA 13) with a DLL, lib\x64, nvcc.exe.
inline fs::path windows_toolkit(const fs::path& base, const std::string& version, bool bin_x64) {
  const auto root = base / ("win-v" + version);
  put(root / "version.json", R"({"cuda": {"name": "CUDA SDK", "version": ")" + version + R"(.0"}})");
  put(root / "include/cuda.h", "toolkit header");
  put(root / (bin_x64 ? "bin/x64/cudart64_13.dll" : "bin/cudart64_12.dll"), "cudart");
  put(root / "bin/nvcc.exe", "nvcc");
  put(root / "lib/x64/cudart.lib", "lib");
  return root;
}

/// Linux layout like this image's /usr/local/cuda: lib64 links to targets/x86_64-linux/lib.
inline fs::path linux_toolkit(const fs::path& base, const std::string& version) {
  const auto root = base / ("linux-" + version);
  const auto dot = version.find('.');
  const int v = std::stoi(version.substr(0, dot)) * 1000 + std::stoi(version.substr(dot + 1)) * 10;
  put(root / "include/cuda.h", "#define CUDA_VERSION " + std::to_string(v) + "\n");
  put(root / "bin/nvcc", "nvcc");
  put(root / "targets/x86_64-linux/lib/libcudart.so.12", "cudart");
  fs::create_directory_symlink("targets/x86_64-linux/lib", root / "lib64");
  return root;
}

/// Every entry below `root` (outside .cudnnctl): path -> "file <sha256>", "link <target>" or "dir".
inline std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const auto rel = fs::relative(it->path(), root).generic_string();
    if (rel == ".cudnnctl" || rel.starts_with(".cudnnctl/")) {
      if (it->is_directory() && !it->is_symlink()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) out[rel] = "link " + fs::read_symlink(it->path()).string();
    else if (it->is_directory()) out[rel] = "dir";
    else out[rel] = "file " + *sha256_file(it->path().string());
  }
  return out;
}

} // namespace cudnnctl::testing
