// bench helper: extraction alone (no hashing), through the same engine `cudnnctl extract` uses.
//   cudnnctl_extract_only ARCHIVE(.zip|.tar.xz|.tgz) DEST [THREADS]
#include <cstdio>
#include <filesystem>
#include <string>

#include "cudnnctl/archive/reader.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ARCHIVE DEST [THREADS]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const auto format = path.ends_with(".zip") ? cudnnctl::ArchiveFormat::zip
                      : path.ends_with(".tgz") ? cudnnctl::ArchiveFormat::tgz
                                               : cudnnctl::ArchiveFormat::tar_xz;
  std::filesystem::create_directories(argv[2]);
  cudnnctl::ExtractOptions options;
  options.policy.archive = path;
  options.threads = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 0;
  const auto r = cudnnctl::extract_archive(path, format, argv[2], options);
  if (!r) {
    std::fprintf(stderr, "%s\n", r.error().message.c_str());
    return 1;
  }
  return 0;
}
