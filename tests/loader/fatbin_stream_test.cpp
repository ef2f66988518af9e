#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "cudnnctl/loader/fatbin_stream.hpp"

#include "crafted_fatbin.hpp"
#include "memory_reader.hpp"
#include "../skip.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

Result<GpuCode> scan_in_chunks(const std::string& bytes, std::size_t chunk) {
  FatbinStreamScanner scanner("lib");
  for (std::size_t at = 0; at < bytes.size(); at += chunk) scanner.feed(bytes.data() + at, std::min(chunk, bytes.size() - at));
  return scanner.finish();
}

bool same_entry(const FatbinEntry& a, const FatbinEntry& b) {
  return a.kind == b.kind && a.kind_code == b.kind_code && a.arch == b.arch && a.compressed == b.compressed &&
         a.ptx_isa_major == b.ptx_isa_major && a.ptx_isa_minor == b.ptx_isa_minor && a.stored_size == b.stored_size &&
         a.uncompressed_size == b.uncompressed_size;
}

// The scanner and the random-access reader agree: both fail, or both read the same code.
void check_agreement(const std::string& bytes, std::size_t chunk) {
  const auto random_access = read_gpu_code(memory(bytes), "lib");
  const auto streamed = scan_in_chunks(bytes, chunk);
  INFO("chunk " << chunk << "; reader: " << (random_access ? "ok" : random_access.error().message)
                << "; scanner: " << (streamed ? "ok" : streamed.error().message));
  REQUIRE(static_cast<bool>(random_access) == static_cast<bool>(streamed));
  if (!random_access) return;
  CHECK(streamed->has_fatbin == random_access->has_fatbin);
  CHECK(streamed->section == (random_access->has_fatbin ? random_access->section : std::string()));
  CHECK(streamed->containers == random_access->containers);
  REQUIRE(streamed->entries.size() == random_access->entries.size());
  for (std::size_t i = 0; i < streamed->entries.size(); ++i) CHECK(same_entry(streamed->entries[i], random_access->entries[i]));
}

std::string stream_mixed_fatbin() {
  return crafted_container({{.kind = 2, .arch = 90, .flags = 0x100011},
                            {.kind = 2, .arch = 100, .flags = 0x1200011, .header_size = 96},
                            {.kind = 1, .arch = 120, .flags = 0x108011, .header_size = 80, .payload = std::string(17, 'p'), .isa_minor = 1}}) +
         crafted_container({{.kind = 2, .arch = 121, .flags = 0x1008011, .header_size = 104}});
}

// A payload that holds a container signature of its own: skipped, never read as a container.
std::string decoy_in_payload() {
  return crafted_container({{.kind = 2, .arch = 80, .payload = crafted_container({{.kind = 2, .arch = 61}})}});
}

} // namespace

TEST_CASE("fat binary stream: the same code as the random-access reader, in any chunking", "[fatbin_stream]") {
  for (const auto& blob : {stream_mixed_fatbin(), decoy_in_payload(), std::string()}) {
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{4096}, std::size_t{1} << 20}) {
      check_agreement(crafted_elf_with_section(".nv_fatbin", blob), chunk);
      check_agreement(crafted_pe_with_section(".nv_fatb", blob), chunk);  // a PE section ends in zero padding
      check_agreement(crafted_elf_with_section(".rodata", blob), chunk);   // containers outside the section: none
    }
  }
  const auto code = scan_in_chunks(crafted_elf_with_section(".nv_fatbin", stream_mixed_fatbin()), 5);
  REQUIRE(code);
  CHECK(gpu_code_summary(*code) == "SASS sm_90a sm_100f sm_121; PTX compute_120a");
  CHECK(code->compressed_entries() == 2);
  const auto decoy = scan_in_chunks(crafted_elf_with_section(".nv_fatbin", decoy_in_payload()), 3);
  REQUIRE(decoy);
  CHECK(gpu_code_summary(*decoy) == "SASS sm_80");
}

TEST_CASE("fat binary stream: a broken section is an error, never a shorter answer", "[fatbin_stream]") {
  const auto good = stream_mixed_fatbin();
  const std::vector<std::string> broken = {
      "junk" + good,                                                                   // the section does not start with a container
      good + "junk-not-zero",                                                          // neither a container nor zero padding after
      crafted_container({{.kind = 2, .arch = 75, .header_size = 40}}),                 // an entry header too small
      crafted_container({{.kind = 2, .arch = 75, .payload_size_override = 1000}}),     // a payload past its container
      crafted_container({{.kind = 2, .arch = 5000}}),                                  // no such architecture
      crafted_container({{.kind = 2, .arch = 75}}, 10),                                // a body shorter than an entry header
  };
  for (const auto& blob : broken) {
    const auto scanned = scan_in_chunks(crafted_elf_with_section(".nv_fatbin", blob), 9);
    REQUIRE_FALSE(scanned);
    CHECK(scanned.error().message.find("malformed CUDA fat binary") != std::string::npos);
    check_agreement(crafted_elf_with_section(".nv_fatbin", blob), 9);
  }
  const auto not_a_library = scan_in_chunks("plain text, not a library", 4);
  REQUIRE_FALSE(not_a_library);
  CHECK(not_a_library.error().message.find("neither an ELF nor a PE") != std::string::npos);
  const auto cut = crafted_elf_with_section(".nv_fatbin", good);
  CHECK_FALSE(scan_in_chunks(cut.substr(0, cut.size() - 10), 64));  // the section table cut short
}

namespace {

// Containers laid out as NVIDIA's linkers lay them: `extra` zero bytes after each, then zeros up to the next
// multiple of `align` (a Windows DLL: 8 more bytes, align 8; an aarch64 library: align 256, gaps up to 232).
std::string padded_section(const std::vector<std::string>& containers, std::size_t extra, std::size_t align) {
  std::string out;
  for (const auto& c : containers) {
    out += c;
    out.append(extra, '\0');
    out.append((align - out.size() % align) % align, '\0');
  }
  return out;
}

std::vector<std::string> three_containers() {
  return {crafted_container({{.kind = 2, .arch = 50}, {.kind = 2, .arch = 61}}), crafted_container({{.kind = 2, .arch = 90, .flags = 0x100011}}),
          crafted_container({{.kind = 1, .arch = 90, .payload = std::string(40, 'p')}})};
}

} // namespace

TEST_CASE("fat binary: zero padding between containers (NVIDIA's Windows DLLs, aarch64 libraries)", "[fatbin_stream][fatbin]") {
  const auto pe_like = padded_section(three_containers(), 8, 8), arm_like = padded_section(three_containers(), 0, 256);
  std::size_t unpadded = 0;
  for (const auto& c : three_containers()) unpadded += c.size();
  REQUIRE(pe_like.size() >= unpadded + 3 * 8);  // the padding is there
  REQUIRE(arm_like.size() % 256 == 0);
  for (const auto& blob : {pe_like, arm_like}) {
    for (const auto& file : {crafted_pe_with_section(".nv_fatb", blob), crafted_elf_with_section(".nv_fatbin", blob)}) {
      const auto code = read_gpu_code(memory(file), "lib");
      INFO((code ? "" : code.error().message));
      REQUIRE(code);
      CHECK(code->containers == 3);
      CHECK(gpu_code_summary(*code) == "SASS sm_50 sm_61 sm_90a; PTX compute_90");
      for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) check_agreement(file, chunk);
    }
  }
}

TEST_CASE("fat binary: zeros that are not padding between containers stay malformed", "[fatbin_stream][fatbin]") {
  const auto c = three_containers();
  const std::vector<std::pair<std::string, std::string>> broken = {
      {"leading zeros", std::string(8, '\0') + c[0] + c[1]},                                 // padding before the first container
      {"unaligned", c[0] + std::string(5, '\0') + c[1]},                                     // the next container off an 8-byte boundary
      {"gap too long", c[0] + std::string(k_fatbin_max_gap + 8, '\0') + c[1]},               // more zeros than any alignment
      {"zeros then junk", c[0] + std::string(8, '\0') + "junk-not-a-container" + c[1]},      // zeros, then neither
  };
  for (const auto& [name, blob] : broken) {
    INFO(name);
    const auto file = crafted_pe_with_section(".nv_fatb", blob);
    const auto code = read_gpu_code(memory(file), "lib");
    REQUIRE_FALSE(code);
    CHECK_THAT(code.error().message, Catch::Contains("malformed CUDA fat binary"));
    CHECK_THAT(code.error().hint, Catch::Contains("cuobjdump"));  // unread is not called damaged
    check_agreement(file, 9);
    check_agreement(crafted_elf_with_section(".nv_fatbin", blob), 9);
  }
}

TEST_CASE("fat binary stream: what it keeps is bounded (containers, entries)", "[fatbin_stream]") {
  const auto empty = crafted_container({});
  std::string many;
  many.reserve(empty.size() * (k_fatbin_max_entries + 1));
  for (std::size_t i = 0; i <= k_fatbin_max_entries; ++i) many += empty;
  const auto scanned = scan_in_chunks(crafted_elf_with_section(".nv_fatbin", many), std::size_t{1} << 20);
  REQUIRE_FALSE(scanned);
  CHECK_THAT(scanned.error().message, Catch::Contains("more than 1048576 entries or containers"));
}

TEST_CASE("fat binary stream: damaged files read the same as with random access", "[fatbin_stream]") {
  std::mt19937 rng(40);
  const auto elf = crafted_elf_with_section(".nv_fatbin", stream_mixed_fatbin() + decoy_in_payload());
  const auto pe = crafted_pe_with_section(".nv_fatb", stream_mixed_fatbin());
  for (int round = 0; round < 400; ++round) {
    auto bytes = round % 2 ? elf : pe;
    const auto flips = 1 + rng() % 3;
    for (unsigned i = 0; i < flips; ++i) bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
    check_agreement(bytes, 1 + rng() % 100);
  }
}

TEST_CASE("fat binary stream: the image's real cuDNN library reads as with random access", "[fatbin_stream]") {
  const std::string lib = "/usr/local/cuda/lib64/libcudnn_engines_precompiled.so.9";
  std::error_code ec;
  if (!std::filesystem::exists(lib, ec)) CUDNNCTL_SKIP("no cuDNN 9 at " + lib);
  const auto whole = read_gpu_code_file(lib);
  REQUIRE(whole);
  std::ifstream in(lib, std::ios::binary);
  FatbinStreamScanner scanner(lib);
  std::string chunk(std::size_t{3} << 20, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    scanner.feed(chunk.data(), static_cast<std::size_t>(in.gcount()));
  const auto streamed = scanner.finish();
  REQUIRE(streamed);
  CHECK(streamed->containers == whole->containers);
  REQUIRE(streamed->entries.size() == whole->entries.size());
  for (std::size_t i = 0; i < whole->entries.size(); ++i) CHECK(same_entry(streamed->entries[i], whole->entries[i]));
  CHECK(gpu_code_summary(*streamed) == gpu_code_summary(*whole));
}
