// libFuzzer target for the archive readers: the input is written to a file and read as a zip, a
// tar.xz and a tgz; each is listed and, when the safety rules pass, extracted into a fresh staging
// folder. Besides "no crash, no UB, no leak", it checks that nothing is ever written outside staging.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cudnnctl/archive/reader.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path root = fs::temp_directory_path() / ("cudnnctl-fuzz-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "in");
  const auto input = (root / "in" / "archive").string();
  std::ofstream(input, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  for (auto format : {cudnnctl::ArchiveFormat::zip, cudnnctl::ArchiveFormat::tar_xz, cudnnctl::ArchiveFormat::tgz}) {
    (void)cudnnctl::list_archive(input, format);
    const auto staging = (root / "staging").string();
    fs::create_directories(staging);
    cudnnctl::ExtractOptions options;
    options.threads = 1;
    options.policy.max_total_size = 64u << 20;
    (void)cudnnctl::extract_archive(input, format, staging, options);
    for (const auto& e : fs::directory_iterator(root))
      if (e.path().filename() != "in" && e.path().filename() != "staging") std::abort();  // escaped staging
    fs::remove_all(staging);
  }
  return 0;
}
