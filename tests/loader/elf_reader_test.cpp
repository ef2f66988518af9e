#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudnnctl/loader/elf_reader.hpp"

#include "memory_reader.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
std::string slurp(const std::string& p, std::size_t limit) {
  std::ifstream in(p, std::ios::binary);
  std::string s(limit, '\0');
  in.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}
} // namespace

TEST_CASE("cuDNN 9 libraries on this image: SONAME, DT_NEEDED and RUNPATH as readelf shows them", "[elf_reader]") {
  const std::string graph = "/usr/local/cuda/lib/libcudnn_graph.so.9";
  if (!fs::exists(graph)) CUDNNCTL_SKIP("no cuDNN 9 in /usr/local/cuda/lib on this machine");  // only on the project's image
  const auto g = read_elf_file(graph);
  REQUIRE(g);
  CHECK(g->machine == 62);
  CHECK(elf_machine_name(g->machine) == "x86_64");
  CHECK(g->soname == "libcudnn_graph.so.9");
  CHECK(has(g->needed, "libz.so.1"));
  CHECK(has(g->needed, "libc.so.6"));
  CHECK(g->runpath.rfind("$ORIGIN", 0) == 0);
  const auto ops = read_elf_file("/usr/local/cuda/lib/libcudnn_ops.so.9");
  REQUIRE(ops);
  CHECK(has(ops->needed, "libcudnn_graph.so.9"));
  const auto shim = read_elf_file("/usr/local/cuda/lib/libcudnn.so.9");
  REQUIRE(shim);
  CHECK(shim->runpath == "$ORIGIN");
  CHECK_FALSE(has(shim->needed, "libcudnn_graph.so.9"));  // the shim dlopens its sub-libraries
}

TEST_CASE("system libraries and executables read too", "[elf_reader]") {
  const auto libz = read_elf_file("/lib/x86_64-linux-gnu/libz.so.1");
  if (libz) CHECK(libz->soname == "libz.so.1");
  const auto sh = read_elf_file("/bin/sh");
  REQUIRE(sh);
  CHECK(has(sh->needed, "libc.so.6"));
}

TEST_CASE("what is not ELF, or is cut short, is an error and never a crash", "[elf_reader]") {
  CHECK_FALSE(read_elf_dynamic(memory(""), "empty"));
  CHECK_FALSE(read_elf_dynamic(memory("MZ\x90\x00 this is a PE file"), "pe"));
  const auto real = slurp("/bin/sh", 1 << 20);
  REQUIRE(real.size() > 4096);
  for (std::size_t cut : {16u, 63u, 64u, 100u, 1000u, 4000u}) {
    INFO(cut);
    const auto r = read_elf_dynamic(memory(real.substr(0, cut)), "cut");
    CHECK_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("'cut'"));
  }
  std::string flipped = real;
  flipped[4] = 7;  // unknown class
  CHECK_FALSE(read_elf_dynamic(memory(flipped), "x"));
  CHECK(read_elf_file("/nonexistent.so").error().code == ErrorCode::file_not_found);
}
