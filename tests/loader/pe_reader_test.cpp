#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/loader/pe_reader.hpp"

#include "memory_reader.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {
std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
bool has_ci(const std::vector<std::string>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& x) { return iequals_ascii(x, s); });
}
} // namespace

#ifdef CUDNNCTL_TEST_DLLS
TEST_CASE("DLLs built with mingw-w64: machine and imported DLLs", "[pe_reader]") {
  const std::string dir = CUDNNCTL_TEST_DLLS;
  const auto main = read_pe_file(dir + "/cudnn64_9.dll");
  REQUIRE(main);
  CHECK(main->machine == 0x8664);
  CHECK(pe_machine_name(main->machine) == "x64");
  CHECK(main->is_pe32_plus);
  CHECK(main->is_dll);
  CHECK(has_ci(main->imports, "cudnn_graph64_9.dll"));
  CHECK(has_ci(main->imports, "KERNEL32.dll"));
  const auto graph = read_pe_file(dir + "/cudnn_graph64_9.dll");
  REQUIRE(graph);
  CHECK_FALSE(has_ci(graph->imports, "cudnn_graph64_9.dll"));

  // a 32-bit DLL (the machine field says x86) reads as such: "error code 193" on 64-bit Windows
  auto bytes = slurp(dir + "/cudnn64_9.dll");
  const auto pe = static_cast<std::size_t>(static_cast<unsigned char>(bytes[60])) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[61])) << 8);
  bytes[pe + 4] = 0x4c;
  bytes[pe + 5] = 0x01;
  const auto x86 = read_pe_imports(memory(bytes), "x86");
  REQUIRE(x86);
  CHECK(pe_machine_name(x86->machine) == "x86");

  // cut short anywhere: an error naming the file, never a crash
  const auto full = slurp(dir + "/cudnn64_9.dll");
  for (std::size_t cut : {2u, 63u, 100u, 300u, 600u, 1500u}) {
    INFO(cut);
    const auto r = read_pe_imports(memory(full.substr(0, cut)), "cut.dll");
    CHECK_FALSE(r);
  }
}

TEST_CASE("version resources: file and product version, and DLLs without one", "[pe_reader]") {
  const std::string dir = CUDNNCTL_TEST_DLLS;
  const auto main = read_pe_file(dir + "/cudnn64_9.dll");
  REQUIRE(main);
  CHECK(main->file_version == "9.1.0.70");
  CHECK(main->product_version == "9.1.0.70");
  CHECK(read_pe_file(dir + "/old/cudnn64_9.dll")->file_version == "9.0.0.312");
  CHECK(read_pe_file(dir + "/sys/nvcuda.dll")->file_version == "32.0.15.5222");
  const auto none = read_pe_file(dir + "/cudnn_heuristic64_9.dll");
  REQUIRE(none);
  CHECK(none->file_version.empty());
  // a damaged resource table is no version, never a crash
  auto bytes = slurp(dir + "/cudnn64_9.dll");
  const auto sig = bytes.find(std::string("\xBD\x04\xEF\xFE", 4));
  REQUIRE(sig != std::string::npos);
  bytes[sig] = 0;
  const auto broken = read_pe_imports(memory(bytes), "broken");
  REQUIRE(broken);
  CHECK(broken->file_version.empty());
}
#endif

TEST_CASE("what is not a PE file is refused", "[pe_reader]") {
  CHECK_FALSE(read_pe_imports(memory(""), "empty"));
  CHECK_FALSE(read_pe_imports(memory("\x7F" "ELF......"), "elf"));
  std::string mz(64, '\0');
  mz[0] = 'M';
  mz[1] = 'Z';
  mz[60] = 64;
  CHECK_THAT(read_pe_imports(memory(mz + "XX\0\0"), "x").error().message, Catch::Contains("PE signature"));
  CHECK(read_pe_file("/nonexistent.dll").error().code == ErrorCode::file_not_found);
  CHECK(pe_machine_name(0xAA64) == "arm64");
}
