#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cudnnctl/loader/library_files.hpp"

#include "../archive/test_archives.hpp"
#include "crafted_fatbin.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {
void write_library_bytes(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }
} // namespace

TEST_CASE("Library file names: ELF shared objects and DLLs, nothing else", "[library_files]") {
  for (const char* yes : {"libcudnn.so", "libcudnn.so.9", "libcudnn_ops.so.9.19.0", "cudnn64_9.dll", "CUDNN_OPS64_9.DLL", "x.Dll"}) {
    INFO(yes);
    CHECK(is_library_file_name(yes));
  }
  for (const char* no : {"libcudnn.a", "libcudnn_static.a", ".so", ".dll", "dll", "libcudnn.sox", "cudnn.lib", "libcudnn.so9", "notes.txt", ""}) {
    INFO(no);
    CHECK_FALSE(is_library_file_name(no));
  }
  CHECK(is_shared_library_name("libcudnn.so.9"));
  CHECK_FALSE(is_shared_library_name("cudnn64_9.dll"));
  CHECK(is_dll_name("cudnn64_9.DLL"));
  CHECK_FALSE(is_dll_name("libcudnn.so.9"));
}

TEST_CASE("A folder's libraries: regular files with a library's name, sorted, links and folders left out", "[library_files]") {
  TempDir tmp;
  const auto dir = tmp.path();
  const auto sass90 = crafted_container({{.kind = 2, .arch = 90}});
  write_library_bytes(dir / "libcudnn_ops.so.9.19.0", crafted_elf_with_section(".nv_fatbin", sass90));
  write_library_bytes(dir / "cudnn64_9.dll", crafted_pe_with_section(".nv_fatb", sass90));
  write_library_bytes(dir / "libcudnn.a", "!<arch>\n");
  write_library_bytes(dir / "readme.txt", "text");
  write_library_bytes(dir / "libbroken.so.1", "not an ELF file");
  fs::create_symlink("libcudnn_ops.so.9.19.0", dir / "libcudnn_ops.so.9");
  fs::create_directory(dir / "lib.so");

  const auto folder = dir.string();
  const std::vector<std::string> want{(dir / "cudnn64_9.dll").string(), (dir / "libbroken.so.1").string(),
                                      (dir / "libcudnn_ops.so.9.19.0").string()};
  CHECK(library_files_in(folder) == want);

  const auto read = read_folder_gpu_code(folder);
  REQUIRE(read.size() == 3);
  for (std::size_t i = 0; i < read.size(); ++i) CHECK(read[i].path == want[i]);
  REQUIRE(read[0].code);
  REQUIRE(read[0].code->sass().size() == 1);
  CHECK(sass_name(read[0].code->sass().front()) == "sm_90");
  CHECK_FALSE(read[1].code);  // unreadable: its error, the others still read
  REQUIRE(read[2].code);
  CHECK(read[2].code->section == ".nv_fatbin");

  CHECK(library_files_in((dir / "missing").string()).empty());
  CHECK(read_folder_gpu_code((dir / "readme.txt").string()).empty());
}
