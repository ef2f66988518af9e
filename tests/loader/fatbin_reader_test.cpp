#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cudnnctl/loader/fatbin_reader.hpp"

#include "crafted_fatbin.hpp"
#include "memory_reader.hpp"
#include "../skip.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

std::vector<std::string> fatbin_sass_names(const GpuCode& code) {
  std::vector<std::string> out;
  for (const auto& a : code.sass()) out.push_back(sass_name(a));
  return out;
}
std::vector<std::string> fatbin_ptx_names(const GpuCode& code) {
  std::vector<std::string> out;
  for (const auto& a : code.ptx()) out.push_back(ptx_name(a));
  return out;
}

// what nvcc 13.0 writes for -gencode sm_90a, sm_100f, sm_120a + compute_120a (PTX compressed), plain sm_121
std::string crafted_mixed_fatbin() {
  return crafted_container({{.kind = 2, .arch = 90, .flags = 0x100011},
                            {.kind = 2, .arch = 100, .flags = 0x1200011, .header_size = 96},
                            {.kind = 2, .arch = 120, .flags = 0x1100011, .header_size = 112, .payload = std::string(40, 's')}}) +
         crafted_container({{.kind = 1, .arch = 120, .flags = 0x108011, .header_size = 80, .payload = std::string(17, 'p'), .isa_major = 9, .isa_minor = 1},
                            {.kind = 2, .arch = 121, .flags = 0x1008011, .header_size = 104}});
}

} // namespace

TEST_CASE("fat binary: SASS with a and f variants, PTX with its ISA version, compression", "[fatbin_reader]") {
  const auto bytes = crafted_mixed_fatbin();
  const auto code = read_fatbin_section(memory(bytes), {0, bytes.size()}, "lib.so");
  REQUIRE(code);
  CHECK(code->has_fatbin);
  CHECK(code->containers == 2);
  REQUIRE(code->entries.size() == 5);
  CHECK(fatbin_sass_names(*code) == std::vector<std::string>{"sm_90a", "sm_100f", "sm_120a", "sm_121"});
  CHECK(fatbin_ptx_names(*code) == std::vector<std::string>{"compute_120a"});
  CHECK(code->compressed_entries() == 2);
  const auto& ptx = code->entries[3];
  CHECK(ptx.kind == FatbinKind::ptx);
  CHECK(ptx.ptx_isa_major == 9);
  CHECK(ptx.ptx_isa_minor == 1);
  CHECK(ptx.compressed);
  CHECK(ptx.stored_size == 17);
  CHECK(ptx.uncompressed_size == 51);
  CHECK_FALSE(code->entries[0].compressed);
  CHECK(gpu_code_summary(*code) == "SASS sm_90a sm_100f sm_120a sm_121; PTX compute_120a");
}

TEST_CASE("fat binary: empty containers, trailing zero padding, unknown kinds counted but not listed", "[fatbin_reader]") {
  auto bytes = crafted_container({}) + crafted_container({{.kind = 0x40, .arch = 0}, {.kind = 2, .arch = 86}}) + std::string(24, '\0');
  const auto code = read_fatbin_section(memory(bytes), {0, bytes.size()}, "lib.so");
  REQUIRE(code);
  CHECK(code->containers == 2);
  CHECK(code->entries.size() == 2);
  CHECK(fatbin_sass_names(*code) == std::vector<std::string>{"sm_86"});
  CHECK(fatbin_ptx_names(*code).empty());
  CHECK(gpu_code_summary(GpuCode{}) == "no GPU code");
}

TEST_CASE("fat binary: hostile sizes, counts and offsets are refused with the file named", "[fatbin_reader]") {
  const auto good = crafted_container({{.kind = 2, .arch = 80}});
  const auto refused = [](const std::string& bytes, const std::string& why) {
    INFO(why);
    const auto r = read_fatbin_section(memory(bytes), {0, bytes.size()}, "/x/libhostile.so");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_corrupt);
    CHECK(r.error().path == "/x/libhostile.so");
    CHECK(r.error().message.find("/x/libhostile.so") != std::string::npos);
    CHECK(r.error().message.find(why) != std::string::npos);
    CHECK_FALSE(r.error().hint.empty());
  };
  refused("not a fatbin at all, just text", "fat-binary magic");
  refused(good.substr(0, 10), "too few for a container header");
  refused(crafted_container({{.kind = 2, .arch = 80}}, 1ull << 40), "runs past the end of the section");
  refused(crafted_container({{.kind = 2, .arch = 80, .payload_size_override = 1ull << 62}}), "runs past its container");
  refused(crafted_container({{.kind = 2, .arch = 80, .payload_size_override = ~0ull - 1}}), "runs past its container");
  refused(crafted_container({{.kind = 2, .arch = 80, .header_size = 8}}), "cut short");
  refused(crafted_container({{.kind = 2, .arch = 80, .header_size = 1u << 20}}), "header size");
  refused(crafted_container({{.kind = 2, .arch = 4000000000u}}), "architecture 4000000000");
  auto cut = good;
  cut.resize(cut.size() - 30);  // the container says more than the section holds
  refused(cut, "runs past the end of the section");
  auto version = good;
  version[4] = 2;
  refused(version, "version 2");
  refused(good + "garbage!" + std::string(8, '\0'), "does not start with the fat-binary magic");
  refused(good + std::string(70000, '\0'), "neither padding before a container nor the section's end");  // more zeros than padding
  // a short read (the file ends inside the section) is an error, never a smaller answer
  const auto r = read_fatbin_section(memory(good), {0, good.size() + 64}, "short.so");
  CHECK_FALSE(r);
}

TEST_CASE("fat binary: the entry count is capped", "[fatbin_reader]") {
  // 2^20 + 1 empty-payload entries in one container: refused, not read forever
  std::string body;
  for (int i = 0; i < 4; ++i) body += crafted_entry({.kind = 2, .arch = 75, .payload = ""});
  std::string many;
  many.reserve((k_fatbin_max_entries + 4) * 64 + 16);
  for (std::size_t i = 0; i < k_fatbin_max_entries / 4 + 1; ++i) many += body;
  std::string bytes;
  put_le(bytes, 0xBA55ED50u, 4);
  put_le(bytes, 1, 2);
  put_le(bytes, 16, 2);
  put_le(bytes, many.size(), 8);
  bytes += many;
  const auto r = read_fatbin_section(memory(bytes), {0, bytes.size()}, "many.so");
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("more than 1048576 entries") != std::string::npos);
}

TEST_CASE("fat binary found through the ELF section table and the PE section table", "[fatbin_reader]") {
  const auto blob = crafted_mixed_fatbin();
  const auto elf = read_gpu_code(memory(crafted_elf_with_section(".nv_fatbin", blob)), "libx.so");
  REQUIRE(elf);
  CHECK(elf->section == ".nv_fatbin");
  CHECK(fatbin_sass_names(*elf) == std::vector<std::string>{"sm_90a", "sm_100f", "sm_120a", "sm_121"});
  const auto pe = read_gpu_code(memory(crafted_pe_with_section(".nv_fatb", blob)), "x64_9.dll");
  REQUIRE(pe);
  CHECK(pe->section == ".nv_fatb");
  CHECK(fatbin_ptx_names(*pe) == std::vector<std::string>{"compute_120a"});
  CHECK(pe->entries.size() == 5);

  // no such section: no GPU code, not an error (libcudnn.so.9 itself has none)
  const auto none = read_gpu_code(memory(crafted_elf_with_section(".rodata", blob)), "libcudnn.so.9");
  REQUIRE(none);
  CHECK_FALSE(none->has_fatbin);
  CHECK(none->entries.empty());
  const auto no_pe = read_gpu_code(memory(crafted_pe_with_section(".rdata", blob)), "cudnn64_9.dll");
  REQUIRE(no_pe);
  CHECK_FALSE(no_pe->has_fatbin);

  // neither format; a section table that lies: errors naming the file
  CHECK_FALSE(read_gpu_code(memory("#!/bin/sh\n"), "script"));
  auto lying = crafted_elf_with_section(".nv_fatbin", blob);
  lying[40] = '\x7f';  // e_shoff far past the end
  const auto r = read_gpu_code(memory(lying), "lying.so");
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("lying.so") != std::string::npos);
  for (std::size_t cut : {3u, 20u, 63u, 100u}) {
    INFO(cut);
    CHECK_FALSE(read_gpu_code(memory(crafted_elf_with_section(".nv_fatbin", blob).substr(0, cut)), "cut.so"));
    CHECK_FALSE(read_gpu_code(memory(crafted_pe_with_section(".nv_fatb", blob).substr(0, cut)), "cut.dll"));
  }
}

TEST_CASE("fat binary of the image's real cuDNN library (no cuobjdump needed)", "[fatbin_reader]") {
  const std::string lib = "/usr/local/cuda/lib64/libcudnn_ops.so.9";
  if (!std::filesystem::exists(lib)) CUDNNCTL_SKIP("no CUDA toolkit with cuDNN in /usr/local/cuda");
  const auto code = read_gpu_code_file(lib);
  REQUIRE(code);
  CHECK(code->has_fatbin);
  CHECK(code->containers > 0);
  CHECK_FALSE(code->sass().empty());
  const auto main = read_gpu_code_file("/usr/local/cuda/lib64/libcudnn.so.9");
  REQUIRE(main);
  CHECK_FALSE(main->has_fatbin);
}
