// Every naming era x OS x machine the contract knows, as one table: where an archive keeps its libraries, import
// libraries and headers, and the file names the loader opens (cudnn-facts.md sections 1-3). Then every archive of
// the catalog (491 real names) through the same rules, and the Windows machine table (contract/layout) that the
// toolkit reader, the doctor, path and trace take their folders from.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"

using namespace cudnnctl;

namespace {

struct LayoutRow {
  const char* archive;
  const char* library_dir;         // below the top folder; nullptr: not asserted (no source)
  const char* import_library_dir;  // below the top folder; "" on Linux and macOS
  const char* main_library;        // what the loader opens
  const char* license;             // below the top folder
};

// One row per era x OS x machine (and per version where a folder moved), names as NVIDIA spells them.
const LayoutRow k_rows[] = {
    // legacy (<= 8.2): everything under cuda/
    {"cudnn-10.2-linux-x64-v7.6.5.32.tgz", "lib64", "", "libcudnn.so.7", "NVIDIA_SLA_cuDNN_Support.txt"},
    {"cudnn-10.1-linux-ppc64le-v7.6.5.32.tgz", "lib", "", "libcudnn.so.7", "NVIDIA_SLA_cuDNN_Support.txt"},
    {"cudnn-11.2-linux-aarch64sbsa-v8.1.1.33.tgz", "lib64", "", "libcudnn.so.8", "NVIDIA_SLA_cuDNN_Support.txt"},
    // macOS (7.x): our sources give no folder of the osx tgz, so only the names are checked (library_dir nullptr)
    {"cudnn-10.1-osx-x64-v7.6.5.32.tgz", nullptr, "", "libcudnn.7.dylib", "NVIDIA_SLA_cuDNN_Support.txt"},
    {"cudnn-10.2-windows10-x64-v7.6.5.32.zip", "bin", "lib/x64", "cudnn64_7.dll", "NVIDIA_SLA_cuDNN_Support.txt"},
    {"cudnn-11.3-windows-x64-v8.2.1.32.zip", "bin", "lib/x64", "cudnn64_8.dll", "NVIDIA_SLA_cuDNN_Support.txt"},
    // 8.3 on: cudnn-<platform>-<version>_cuda<variant>-archive, libraries in lib/ (Linux), bin\ (Windows)
    {"cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.tar.xz", "lib", "", "libcudnn.so.8", "LICENSE"},
    {"cudnn-linux-sbsa-8.4.1.50_cuda11.6-archive.tar.xz", "lib", "", "libcudnn.so.8", "LICENSE"},
    {"cudnn-linux-ppc64le-8.4.0.27_cuda11.6-archive.tar.xz", "lib", "", "libcudnn.so.8", "LICENSE"},
    {"cudnn-windows-x86_64-8.4.1.50_cuda11.6-archive.zip", "bin", "lib", "cudnn64_8.dll", "LICENSE"},      // 8.3-8.7: lib
    {"cudnn-windows-x86_64-8.8.0.121_cuda12-archive.zip", "bin", "lib/x64", "cudnn64_8.dll", "LICENSE"},   // 8.8 on: lib\x64
    {"cudnn-linux-aarch64-8.9.5.29_cuda12-archive.tar.xz", "lib", "", "libcudnn.so.8", "LICENSE"},
    // 9.x
    {"cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz", "lib", "", "libcudnn.so.9", "LICENSE"},
    {"cudnn-linux-sbsa-9.1.0.70_cuda11-archive.tar.xz", "lib", "", "libcudnn.so.9", "LICENSE"},
    {"cudnn-linux-aarch64-9.1.0.70_cuda12-archive.tar.xz", "lib", "", "libcudnn.so.9", "LICENSE"},
    {"cudnn-linux-ppc64le-9.0.0.312_cuda12-archive.tar.xz", "lib", "", "libcudnn.so.9", "LICENSE"},
    {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "bin", "lib/x64", "cudnn64_9.dll", "LICENSE"},
    {"cudnn-windows-x86_64-9.17.1.4_cuda12-archive.zip", "bin", "lib/x64", "cudnn64_9.dll", "LICENSE"},
    {"cudnn-windows-x86_64-9.18.0.77_cuda13-archive.zip", "bin/x64", "lib/x64", "cudnn64_9.dll", "LICENSE"},  // 9.18 on: bin\x64
    {"cudnn-linux-sbsa-9.19.0.56_cuda13-archive.tar.xz", "lib", "", "libcudnn.so.9", "LICENSE"},
    {"cudnn-windows-arm64-9.27.0.42_cuda13-archive.zip", "bin/arm64", "lib/arm64", "cudnn64_9.dll", "LICENSE"},
};

} // namespace

TEST_CASE("layout table: every era x OS x machine keeps its files where NVIDIA put them", "[layout][layout_table]") {
  std::set<std::string> seen;  // era x OS x arch covered
  for (const auto& row : k_rows) {
    INFO(row.archive);
    const auto name = parse_archive_name(row.archive);
    REQUIRE(name);
    const auto l = expected_layout(*name);
    const auto top = name->top_folder() + "/";
    if (row.library_dir) CHECK(l.library_dir == top + row.library_dir);
    CHECK(l.import_library_dir == (*row.import_library_dir ? top + row.import_library_dir : std::string()));
    CHECK(l.include_dir == top + "include");
    CHECK(l.license_file == top + row.license);
    REQUIRE(!l.library_files.empty());
    CHECK(std::find(l.library_files.begin(), l.library_files.end(), row.main_library) != l.library_files.end());
    // the loader's names are the ones the classifier takes as this major's cuDNN
    for (const auto& f : l.library_files) {
      const auto c = classify_cudnn_file(f, name->os);
      INFO(f);
      if (name->os == Os::macos) continue;  // macOS dylibs are named, never installed
      REQUIRE(c);
      CHECK(c->major == name->version.major());
    }
    seen.insert(fmt::format("{} {} {}", static_cast<int>(name->era), to_string(name->os), to_string(name->arch)));
  }
  // the table reaches every machine of every OS: x86_64, sbsa and aarch64, ppc64le, Windows x64 and ARM64, macOS
  std::set<std::string> platforms;
  for (const auto& row : k_rows) platforms.insert(parse_archive_name(row.archive)->platform);
  CHECK(platforms == std::set<std::string>{"linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le", "windows-x86_64",
                                           "windows-arm64", "osx-x86_64"});
  CHECK(seen.size() >= 12);
}

TEST_CASE("layout table: every archive of the catalog gets a layout inside its own top folder", "[layout][layout_table]") {
  const auto& archives = Catalog::embedded().archives();
  REQUIRE(archives.size() >= 400);
  std::size_t windows = 0, linux_count = 0;
  for (const auto& a : archives) {
    INFO(a.filename);
    const auto name = parse_archive_name(a.filename);
    REQUIRE(name);
    const auto l = expected_layout(*name);
    const auto top = name->top_folder() + "/";
    CHECK(l.library_dir.starts_with(top));
    CHECK(l.include_dir == top + "include");
    CHECK(l.sub_libraries == sub_library_names(name->version));
    const bool has_tensor_ir = std::find(l.sub_libraries.begin(), l.sub_libraries.end(), "cudnn_engines_tensor_ir") != l.sub_libraries.end();
    CHECK(has_tensor_ir == (name->version.major() == 9 && name->version.minor() >= 20));
    REQUIRE(l.library_files.size() == l.sub_libraries.size());
    if (name->os == Os::windows) {
      ++windows;
      const auto& machine = windows_machine(name->arch);
      const auto dir = l.library_dir.substr(top.size());
      CHECK((dir == "bin" || dir == "bin/" + std::string(machine.folder)));
      CHECK(&windows_machine_of_dll_dir(dir) == &machine);  // the folder names the archive's machine back
      CHECK(l.library_files.front().ends_with(fmt::format("64_{}.dll", name->version.major())));
    } else if (name->os == Os::linux_os) {
      ++linux_count;
      CHECK(l.import_library_dir.empty());
      CHECK(l.library_files.front() == fmt::format("libcudnn.so.{}", name->version.major()));
    }
  }
  CHECK(windows > 100);
  CHECK(linux_count > 250);
}

TEST_CASE("layout table: the Windows machines, one row each", "[layout][layout_table]") {
  REQUIRE(windows_machines().size() == 2);
  CHECK(windows_machine(Arch::x86_64).pe_machine == 0x8664);
  CHECK(windows_machine(Arch::arm64).pe_machine == 0xAA64);
  CHECK(windows_machine(Arch::ppc64le).folder == "x64");  // no row: x64
  CHECK(windows_dll_dirs() == std::vector<std::string>{"bin/x64", "bin/arm64", "bin"});
  CHECK(windows_machine_of_dll_dir("bin").folder == "x64");
  CHECK(windows_machine_of_dll_dir("BIN\\ARM64\\").folder == "arm64");
  CHECK(windows_machine_of_dll_dir("C:/CUDA/v13.4/bin/arm64").folder == "arm64");
  CHECK(windows_machine_of_dll_dir("bin/x64").folder == "x64");
  CHECK(windows_lib_dir(windows_machine(Arch::arm64)) == "lib/arm64");
}
