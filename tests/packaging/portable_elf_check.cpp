// Holds a portable Linux cudnnctl (scripts/build-portable.sh) to its promise, read with cudnnctl's own ELF
// reader: DT_NEEDED only glibc's own libraries, no GLIBC_ symbol version above 2.17, nothing asked of any other
// versioned library (libstdc++, ...).
//   portable_elf_check [--machine x86_64|aarch64] FILE...   exit 0: all conform; 1: a violation; 77: FILE absent
//   portable_elf_check --expect-violation FILE...           exit 0 only when every FILE breaks the promise and
//                                                            both checks fired (a library outside glibc, a
//                                                            version above 2.17): the check's own test, on a
//                                                            normally built cudnnctl (GLIBC_2.34, libzip, ...)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/glibc_floor.hpp"

namespace {

const std::vector<unsigned> kGlibcFloor = {2, 17};

bool glibc_library(const std::string& name) {
  static const char* const allowed[] = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1"};
  for (const char* a : allowed)
    if (name == a) return true;
  return name.starts_with("ld-linux-") && name.find(".so.") != std::string::npos;
}

// The promise's breaches in one file, one line each.
std::vector<std::string> violations(const cudnnctl::ElfDynamicInfo& info, const std::string& machine) {
  std::vector<std::string> out;
  if (!machine.empty() && cudnnctl::elf_machine_name(info.machine) != machine)
    out.push_back("machine " + cudnnctl::elf_machine_name(info.machine) + ", not " + machine);
  for (const auto& n : info.needed)
    if (!glibc_library(n)) out.push_back("DT_NEEDED " + n + " is not part of glibc");
  for (const auto& need : info.version_needs) {
    const auto v = cudnnctl::parse_symbol_version(need.version);
    if (!glibc_library(need.file))
      out.push_back(need.version + " asked of " + need.file + ", which is not part of glibc");
    else if (v && v->family == "GLIBC" && cudnnctl::compare_versions(v->parts, kGlibcFloor) > 0)
      out.push_back(need.version + " (of " + need.file + ") is above the GLIBC_2.17 floor");
  }
  return out;
}

} // namespace

int main(int argc, char** argv) {
  bool expect_violation = false;
  std::string machine;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--expect-violation") expect_violation = true;
    else if (a == "--machine" && i + 1 < argc) machine = argv[++i];
    else files.emplace_back(a);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: portable_elf_check [--expect-violation] [--machine ARCH] FILE...\n");
    return 2;
  }
  int broken = 0;
  bool saw_library = false, saw_version = false;
  for (const auto& f : files) {
    if (!std::filesystem::exists(f)) {
      if (expect_violation) { std::printf("%s: absent\n", f.c_str()); return 1; }
      const char* required = std::getenv("CUDNNCTL_REQUIRE_PORTABLE");  // CI: a skip is a failure
      std::printf("%s: %s is not built (scripts/build-portable.sh <arch>)\n", required && std::string(required) == "1" ? "FAIL" : "SKIP", f.c_str());
      return required && std::string(required) == "1" ? 1 : 77;
    }
    const auto info = cudnnctl::read_elf_file(f);
    if (!info) { std::printf("%s: %s\n", f.c_str(), info.error().message.c_str()); return 1; }
    const auto bad = violations(*info, machine);
    for (const auto& b : bad) std::printf("%s: %s\n", f.c_str(), b.c_str());
    if (bad.empty()) std::printf("%s: needs %zu glibc libraries, %zu symbol versions, none above GLIBC_2.17\n", f.c_str(),
                                 info->needed.size(), info->version_needs.size());
    broken += bad.empty() ? 0 : 1;
    for (const auto& b : bad) {
      saw_library = saw_library || b.find("is not part of glibc") != std::string::npos;
      saw_version = saw_version || b.find("above the GLIBC_2.17 floor") != std::string::npos;
    }
  }
  if (expect_violation) return broken == static_cast<int>(files.size()) && saw_library && saw_version ? 0 : 1;
  return broken == 0 ? 0 : 1;
}
