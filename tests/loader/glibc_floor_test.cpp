#include <catch2/catch.hpp>

#include "../skip.hpp"
#include "crafted_elf.hpp"

#include <filesystem>
#include <memory>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include <cstdlib>

#include "cudnnctl/install/library_floor.hpp"
#include "cudnnctl/loader/forward_reader.hpp"
#include "cudnnctl/loader/glibc_floor.hpp"

#include "memory_reader.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
using cudnnctl::testing::CraftedElf;

namespace {
CraftedElf cudnn_like() {
  CraftedElf e;
  e.needed = {"libc.so.6", "libstdc++.so.6"};
  e.verneed = {{"libc.so.6", {"GLIBC_2.17", "GLIBC_2.27", "GLIBC_2.2.5", "GLIBC_PRIVATE"}},
               {"libstdc++.so.6", {"GLIBCXX_3.4.20", "CXXABI_1.3.9", "GLIBCXX_3.4.9"}}};
  return e;
}
// `bytes` handed out forwards in pieces of at most `piece` bytes, as a decompressor gives them; the pull
// shares its position, so a copy restarts nothing (a new pull starts again at 0)
ForwardPull pieces_of(const std::string& bytes, std::size_t piece) {
  auto at = std::make_shared<std::size_t>(0);
  return [&bytes, piece, at](char* buf, std::size_t n) {
    const auto k = std::min<std::size_t>({n, bytes.size() - *at, piece});
    std::copy_n(bytes.data() + *at, k, buf);
    *at += k;
    return k;
  };
}
} // namespace

TEST_CASE("crafted ELF: the version-needed table is read, entry by entry", "[glibc_floor]") {
  const auto info = read_elf_dynamic(memory(cudnn_like().build()), "crafted");
  REQUIRE(info);
  REQUIRE(info->version_needs.size() == 7);
  CHECK(info->version_needs[1].file == "libc.so.6");
  CHECK(info->version_needs[1].version == "GLIBC_2.27");
  CHECK(info->version_needs[4].file == "libstdc++.so.6");
  CHECK(info->version_needs[4].version == "GLIBCXX_3.4.20");
  CHECK(info->needed.size() == 2);
}

TEST_CASE("crafted ELF: the floor is the highest version of each family, naming the library", "[glibc_floor]") {
  LibraryFloor floor;
  floor.add("libcudnn_cnn.so.9", read_elf_dynamic(memory(cudnn_like().build()), "x")->version_needs);
  CraftedElf older;
  older.verneed = {{"libc.so.6", {"GLIBC_2.14"}}, {"libstdc++.so.6", {"GLIBCXX_3.4.29"}}};
  floor.add("libcudnn.so.9", read_elf_dynamic(memory(older.build()), "y")->version_needs);
  REQUIRE(floor.highest.count("GLIBC") == 1);
  CHECK(floor.highest["GLIBC"].version.text() == "GLIBC_2.27");  // 2.27 > 2.17 > 2.14 > 2.2.5 (numeric, not text order)
  CHECK(floor.highest["GLIBC"].library == "libcudnn_cnn.so.9");
  CHECK(floor.highest["GLIBCXX"].version.text() == "GLIBCXX_3.4.29");
  CHECK(floor.highest["GLIBCXX"].library == "libcudnn.so.9");
  CHECK(floor.highest["CXXABI"].version.text() == "CXXABI_1.3.9");
  CHECK(describe_floor(floor) == "GLIBC_2.27 (libcudnn_cnn.so.9), GLIBCXX_3.4.29 (libcudnn.so.9), CXXABI_1.3.9 (libcudnn_cnn.so.9)");

  const auto old_host = host_versions_from(std::string("2.17"), {"GLIBCXX_3.4", "GLIBCXX_3.4.19", "CXXABI_1.3.7"}, "/x/libstdc++.so.6");
  const auto short_of = floor_shortfalls(floor, old_host);
  REQUIRE(short_of.size() == 3);
  const auto new_host = host_versions_from(std::string("2.36"), {"GLIBCXX_3.4.30", "CXXABI_1.3.13"}, "");
  CHECK(floor_shortfalls(floor, new_host).empty());
  const auto unknown = host_versions_from(std::nullopt, {}, "");  // musl / no libstdc++ found: never "too old"
  CHECK(floor_shortfalls(floor, unknown).empty());
}

TEST_CASE("crafted ELF: the version-definition table (what libstdc++.so.6 provides)", "[glibc_floor]") {
  CraftedElf e;
  e.verdef = {"libstdc++.so.6", "GLIBCXX_3.4", "GLIBCXX_3.4.30", "CXXABI_1.3.13"};
  const auto info = read_elf_dynamic(memory(e.build()), "crafted");
  REQUIRE(info);
  CHECK(info->version_defs == std::vector<std::string>{"libstdc++.so.6", "GLIBCXX_3.4", "GLIBCXX_3.4.30", "CXXABI_1.3.13"});
  const auto host = host_versions_from(std::string("2.36"), info->version_defs, "p");
  CHECK(host.highest.at("GLIBCXX").text() == "GLIBCXX_3.4.30");
  CHECK(host.highest.at("GLIBC").text() == "GLIBC_2.36");
}

TEST_CASE("crafted ELF: broken version tables are errors, never a crash or an endless walk", "[glibc_floor]") {
  CraftedElf huge = cudnn_like();
  huge.verneednum_override = 1u << 20;  // more entries than any library has
  CHECK_FALSE(read_elf_dynamic(memory(huge.build()), "huge"));
  CraftedElf wild = cudnn_like();
  wild.first_aux_override = 0x7fffffff;  // the first aux lies past the end of the file
  const auto r = read_elf_dynamic(memory(wild.build()), "wild");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("version-needed"));
  const auto good = cudnn_like().build();
  for (std::size_t cut = good.size() - 40; cut < good.size(); cut += 8) CHECK_FALSE(read_elf_dynamic(memory(good.substr(0, cut)), "cut"));
}

TEST_CASE("symbol version names parse by number", "[glibc_floor]") {
  CHECK(parse_symbol_version("GLIBC_2.2.5")->parts == std::vector<unsigned>{2, 2, 5});
  CHECK_FALSE(parse_symbol_version("GLIBC_PRIVATE"));
  CHECK_FALSE(parse_symbol_version("GCC_3.0"));
  CHECK_FALSE(parse_symbol_version("GLIBC_2..1"));
  CHECK(compare_versions({2, 27}, {2, 2, 5}) > 0);
  CHECK(compare_versions({3, 4}, {3, 4, 0}) == 0);
}

TEST_CASE("the forward reader reaches the dynamic section past its kept prefix, and the tables inside it", "[glibc_floor]") {
  const auto bytes = cudnn_like().build();
  const auto info = read_elf_dynamic(forward_reader(pieces_of(bytes, 7), 1 << 20), "stream");
  REQUIRE(info);
  CHECK(info->version_needs.size() == 7);
  // here every table lies after the dynamic section, so a 100-byte prefix is enough: all reads go forwards
  const auto tiny = read_elf_dynamic(forward_reader(pieces_of(bytes, 7), 100), "tiny");
  REQUIRE(tiny);
  CHECK(tiny->version_needs.size() == 7);
}

TEST_CASE("the forward reader takes the version tables before a string table that lies after them", "[glibc_floor]") {
  // dynamic section, 64 KiB of other sections, version tables, then .dynstr: the reads must go in file order,
  // because the 100-byte prefix kept for going back holds none of them
  CraftedElf e = cudnn_like();
  e.verdef = {"libcudnn_cnn.so.9", "libcudnn_cnn.so.9.19"};
  e.gap_after_dynamic = 64 << 10;
  e.strings_last = true;
  const auto bytes = e.build();
  REQUIRE(read_elf_dynamic(memory(bytes), "random access")->version_needs.size() == 7);
  const auto info = read_elf_dynamic(forward_reader(pieces_of(bytes, 4096), 100), "stream");
  INFO((info ? std::string() : info.error().message));
  REQUIRE(info);
  CHECK(info->version_needs.size() == 7);
  CHECK(info->version_needs.front().file == "libc.so.6");
  CHECK(info->version_defs == std::vector<std::string>{"libcudnn_cnn.so.9", "libcudnn_cnn.so.9.19"});
  CHECK(info->needed == std::vector<std::string>{"libc.so.6", "libstdc++.so.6"});
}

TEST_CASE("the forward reader's default prefix reaches back to 8.1 MB after reading past 20 MB", "[glibc_floor]") {
  // NVIDIA's libcudnn_cnn_infer.so.8 (8.9.6): .gnu.version_r at 8.1 MB, .dynamic and .dynstr past 560 MB
  std::string bytes(std::size_t{24} << 20, 'x');
  const std::size_t tables = 0x821e40, dynamic = std::size_t{20} << 20;
  bytes.replace(tables, 6, "verneed");
  bytes.replace(dynamic, 7, "dynamic");
  const auto read = forward_reader(pieces_of(bytes, 65536));
  CHECK(read(dynamic, 7) == "dynamic");
  CHECK(read(tables, 6) == "vernee");
  CHECK(read(std::size_t{40} << 20, 1).empty());  // past the end
}

TEST_CASE("this host: glibc's version and libstdc++'s highest GLIBCXX, read from its version definitions", "[glibc_floor]") {
  const auto host = detect_host_symbol_versions();
  if (!host.highest.count("GLIBC")) CUDNNCTL_SKIP("the C library here is not glibc");
  CHECK(host.highest.at("GLIBC").parts.at(0) == 2);
  if (host.libstdcxx_path.empty()) CUDNNCTL_SKIP("this build did not load libstdc++.so.6 dynamically");
  REQUIRE(host.highest.count("GLIBCXX"));
  CHECK(host.highest.at("GLIBCXX").parts.size() == 3);
}

TEST_CASE("cuDNN 9.19 on this image: its floor, from the real libraries", "[glibc_floor]") {
  const std::string lib = "/usr/local/cuda/lib/libcudnn_cnn.so.9";
  if (!std::filesystem::exists(lib)) CUDNNCTL_SKIP("no cuDNN 9 in /usr/local/cuda/lib on this machine");
  const auto info = read_elf_file(lib);
  REQUIRE(info);
  LibraryFloor floor;
  floor.add("libcudnn_cnn.so.9", info->version_needs);
  CHECK(floor.highest.at("GLIBC").version.text() == "GLIBC_2.27");  // readelf -V agrees
}

TEST_CASE("install's gate: a floor above the host is install.host-too-old, exit 7, naming the library", "[glibc_floor]") {
  LibraryFloorReport report;
  CraftedElf e = cudnn_like();
  report.floor.add("libcudnn_cnn.so.9", read_elf_dynamic(memory(e.build()), "x")->version_needs);
  const auto old_host = host_versions_from(std::string("2.17"), {"GLIBCXX_3.4.30"}, "");
  const auto r = check_library_floor(report, old_host, "a.tar.xz");
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::host_too_old);
  CHECK(error_id(r.error().code) == "install.host-too-old");
  CHECK(exit_code_for(r.error().code) == ExitCode::incompatible);
  CHECK_THAT(r.error().message, Catch::Contains("libcudnn_cnn.so.9 needs GLIBC_2.27, this host has GLIBC_2.17"));
  CHECK(check_library_floor(report, host_versions_from(std::string("2.36"), {"GLIBCXX_3.4.30"}, ""), "a.tar.xz"));
}

namespace {
// The realistic Linux archive that tests/fixtures/make_realistic_archives.py made for CTest's
// fixtures.realistic_archives (CUDNNCTL_REALISTIC_ARCHIVES names its folder), or why there is none.
struct RealisticArchive {
  std::string path;
  std::string version;
  std::string missing;
};

RealisticArchive realistic_linux_archive() {
  const char* dir = std::getenv("CUDNNCTL_REALISTIC_ARCHIVES");
  if (!dir || !*dir)
    return {"", "", "CUDNNCTL_REALISTIC_ARCHIVES is not set: run it as ctest -R e2e.glibc_floor_real_archive, "
                    "which builds the archives with tests/fixtures/make_realistic_archives.py"};
  const std::filesystem::path folder(dir);
  std::ifstream in(folder / "fixtures.json");
  if (!in) {
    std::ifstream why(folder / "skipped.txt");
    std::string reason;
    std::getline(why, reason);
    return {"", "", reason.empty() ? "no fixtures.json in " + folder.string() : reason};
  }
  const auto made = nlohmann::json::parse(in, nullptr, false);
  if (made.is_discarded() || !made.contains("linux") || !made.contains("version"))
    return {"", "", "unreadable " + (folder / "fixtures.json").string()};
  return {(folder / made["linux"]["file"].get<std::string>()).string(), made["version"].get<std::string>(), ""};
}
} // namespace

TEST_CASE("the real fixture archive: the floor read from its members' headers", "[glibc_floor][realistic_archive]") {
  const RealisticArchive fixture = realistic_linux_archive();
  if (!fixture.missing.empty()) CUDNNCTL_SKIP(fixture.missing);
  // the floor below was read with readelf -V from cuDNN 9.19.0's libraries (this image's)
  if (!fixture.version.starts_with("9.19.0."))
    CUDNNCTL_SKIP("the expected floor is cuDNN 9.19.0's; the realistic archive holds " << fixture.version);
  const std::string archive = fixture.path;
  const auto report = archive_library_floor(archive, ArchiveFormat::tar_xz);
  REQUIRE(report);
  CHECK(report->floor.libraries == 8);
  CHECK(report->unreadable.empty());
  CHECK(report->floor.highest.at("GLIBC").version.text() == "GLIBC_2.27");
  CHECK(report->floor.highest.at("GLIBCXX").version.text() == "GLIBCXX_3.4.21");
  CHECK(report->floor.highest.at("CXXABI").version.text() == "CXXABI_1.3.11");
}
