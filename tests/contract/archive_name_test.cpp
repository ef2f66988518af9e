#include <catch2/catch.hpp>

#include <string>

#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/archive_name.hpp"

using namespace cudnnctl;

namespace {

struct NameCase {
  const char* name;
  const char* platform;
  Os os;
  Arch arch;
  const char* version;
  const char* cuda;
  NamingEra era;
  ArchiveFormat format;
};

} // namespace

TEST_CASE("every naming era parses to the fields the reference gives", "[archive_name]") {
  // cudnn-facts.md section 1.1 and 1.4
  const NameCase cases[] = {
      {"cudnn-10.2-windows10-x64-v7.6.5.32.zip", "windows-x86_64", Os::windows, Arch::x86_64, "7.6.5.32", "10.2", NamingEra::legacy, ArchiveFormat::zip},
      {"cudnn-9.0-windows10-x64-v7.zip", "windows-x86_64", Os::windows, Arch::x86_64, "7", "9.0", NamingEra::legacy, ArchiveFormat::zip},
      {"cudnn-11.4-linux-x64-v8.2.4.15.tgz", "linux-x86_64", Os::linux_os, Arch::x86_64, "8.2.4.15", "11.4", NamingEra::legacy, ArchiveFormat::tgz},
      {"cudnn-11.2-linux-aarch64sbsa-v8.1.1.33.tgz", "linux-sbsa", Os::linux_os, Arch::sbsa, "8.1.1.33", "11.2", NamingEra::legacy, ArchiveFormat::tgz},
      {"cudnn-10.1-linux-ppc64le-v7.6.5.32.tgz", "linux-ppc64le", Os::linux_os, Arch::ppc64le, "7.6.5.32", "10.1", NamingEra::legacy, ArchiveFormat::tgz},
      {"cudnn-10.1-osx-x64-v7.6.5.32.tgz", "osx-x86_64", Os::macos, Arch::x86_64, "7.6.5.32", "10.1", NamingEra::legacy, ArchiveFormat::tgz},
      {"cudnn-11.0-windows-x64-v8.0.5.39.zip", "windows-x86_64", Os::windows, Arch::x86_64, "8.0.5.39", "11.0", NamingEra::legacy, ArchiveFormat::zip},
      {"cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.tar.xz", "linux-x86_64", Os::linux_os, Arch::x86_64, "8.3.2.44", "11.5", NamingEra::cuda_major_minor, ArchiveFormat::tar_xz},
      {"cudnn-windows-x86_64-8.4.1.50_cuda11.6-archive.zip", "windows-x86_64", Os::windows, Arch::x86_64, "8.4.1.50", "11.6", NamingEra::cuda_major_minor, ArchiveFormat::zip},
      {"cudnn-linux-ppc64le-8.4.0.27_cuda11.6-archive.tar.xz", "linux-ppc64le", Os::linux_os, Arch::ppc64le, "8.4.0.27", "11.6", NamingEra::cuda_major_minor, ArchiveFormat::tar_xz},
      {"cudnn-linux-x86_64-8.6.0.163_cuda11-archive.tar.xz", "linux-x86_64", Os::linux_os, Arch::x86_64, "8.6.0.163", "11", NamingEra::cuda_major, ArchiveFormat::tar_xz},
      {"cudnn-windows-x86_64-8.5.0.96_cuda10-archive.zip", "windows-x86_64", Os::windows, Arch::x86_64, "8.5.0.96", "10", NamingEra::cuda_major, ArchiveFormat::zip},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "windows-x86_64", Os::windows, Arch::x86_64, "9.1.0.70", "12", NamingEra::redist_v2, ArchiveFormat::zip},
      {"cudnn-linux-sbsa-9.1.0.70_cuda11-archive.tar.xz", "linux-sbsa", Os::linux_os, Arch::sbsa, "9.1.0.70", "11", NamingEra::redist_v2, ArchiveFormat::tar_xz},
      {"cudnn-linux-aarch64-9.1.0.70_cuda12-archive.tar.xz", "linux-aarch64", Os::linux_os, Arch::aarch64, "9.1.0.70", "12", NamingEra::redist_v2, ArchiveFormat::tar_xz},
      {"cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip", "windows-x86_64", Os::windows, Arch::x86_64, "8.9.7.29", "12", NamingEra::redist_v2, ArchiveFormat::zip},
      {"cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz", "linux-x86_64", Os::linux_os, Arch::x86_64, "9.13.0.50", "13", NamingEra::redist_v2, ArchiveFormat::tar_xz},
      {"cudnn-windows-arm64-9.27.0.42_cuda13-archive.zip", "windows-arm64", Os::windows, Arch::arm64, "9.27.0.42", "13", NamingEra::redist_v2, ArchiveFormat::zip},
      {"cudnn-windows-arm64-9.27.0.42_cuda13.4-archive.zip", "windows-arm64", Os::windows, Arch::arm64, "9.27.0.42", "13.4", NamingEra::redist_v2, ArchiveFormat::zip},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto r = parse_archive_name(c.name);
    REQUIRE(r);
    CHECK(r->platform == c.platform);
    CHECK(r->os == c.os);
    CHECK(r->arch == c.arch);
    CHECK(r->version.to_string() == c.version);
    CHECK(r->cuda_variant == c.cuda);
    CHECK(r->era == c.era);
    CHECK(r->format == c.format);
    CHECK(r->canonical == c.name);
    CHECK(canonical_name(*r) == c.name);
  }
}

TEST_CASE("every archive in the catalog parses to its catalog fields and round-trips", "[archive_name]") {
  const auto& catalog = Catalog::embedded();
  REQUIRE(catalog.archives().size() >= 491);
  for (const auto& a : catalog.archives()) {
    INFO(a.filename);
    const auto r = parse_archive_name(a.filename);
    REQUIRE(r);
    CHECK(r->warnings.empty() == (r->version.count == 4));  // short legacy versions are noted
    CHECK(r->platform == a.platform);
    CHECK(r->cuda_variant == a.cuda_variant);
    // legacy names may give fewer parts than the catalog knows ("v7.1" for 7.1.3)
    const auto v = r->version.to_string();
    CHECK(a.version.compare(0, v.size(), v) == 0);
    CHECK(canonical_name(*r) == a.filename);
    CHECK(r->top_folder() == (r->era == NamingEra::legacy ? "cuda" : a.filename.substr(0, a.filename.rfind("-archive") + 8)));
  }
}

TEST_CASE("a path is reduced to its base name", "[archive_name]") {
  const auto r = parse_archive_name("C:\\Users\\José\\Downloads\\cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  REQUIRE(r);
  CHECK(r->given == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  const auto p = parse_archive_name("/srv/mirror/cudnn/cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
  REQUIRE(p);
  CHECK(p->version.to_string() == "9.19.0.56");
}

TEST_CASE("the seed's hyphenated spelling is accepted with a warning naming NVIDIA's spelling", "[archive_name]") {
  const auto r = parse_archive_name("cudnn-windows-x86-64-9.1.0.70-cuda12-archive.zip");
  REQUIRE(r);
  CHECK(r->canonical == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  REQUIRE(r->warnings.size() == 1);
  CHECK_THAT(r->warnings[0], Catch::Contains("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"));
  CHECK(r->top_folder() == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive");
}

TEST_CASE("download leftovers are ignored with a warning", "[archive_name]") {
  const auto q = parse_archive_name("cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz?__token__=exp=1~hmac=ab");
  REQUIRE(q);
  CHECK(q->canonical == "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz");
  CHECK(q->warnings.size() == 1);
  const auto d = parse_archive_name("cudnn-windows-x86_64-9.1.0.70_cuda12-archive (1).zip");
  REQUIRE(d);
  CHECK(d->canonical == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  CHECK(d->warnings.size() == 1);
}

TEST_CASE("sibling products and installers are refused with what they are", "[archive_name]") {
  const auto samples = parse_archive_name("cudnn_samples-source-9.1.0.70-archive.tar.xz");
  REQUIRE_FALSE(samples);
  CHECK(samples.error().code == ErrorCode::name_sibling_product);
  CHECK_THAT(samples.error().message, Catch::Contains("samples"));
  const auto jit = parse_archive_name("cudnn_jit-linux-x86_64-9.10.0.56_cuda12-archive.tar.xz");
  REQUIRE_FALSE(jit);
  CHECK(jit.error().code == ErrorCode::name_sibling_product);
  CHECK_THAT(jit.error().message, Catch::Contains("Graph-JIT"));
  const auto exe = parse_archive_name("cudnn_9.1.0_windows.exe");
  REQUIRE_FALSE(exe);
  CHECK(exe.error().code == ErrorCode::name_installer);
  const auto deb = parse_archive_name("cudnn-local-repo-ubuntu2204-9.5.1_1.0-1_amd64.deb");
  REQUIRE_FALSE(deb);
  CHECK(deb.error().code == ErrorCode::name_installer);
}

TEST_CASE("malformed names give the right error", "[archive_name]") {
  struct Bad {
    std::string name;
    ErrorCode code;
  };
  const Bad cases[] = {
      {"", ErrorCode::name_empty},
      {"downloads/", ErrorCode::name_empty},
      {std::string(300, 'a') + ".zip", ErrorCode::name_too_long},
      {"tensorrt-10.0.zip", ErrorCode::name_not_cudnn},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive.rar", ErrorCode::name_bad_extension},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive", ErrorCode::name_bad_extension},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive.tar.xz", ErrorCode::name_bad_extension},
      {"cudnn-linux-x86_64-9.1.0.70_cuda12-archive.zip", ErrorCode::name_bad_extension},
      {"cudnn-11.4-linux-x64-v8.2.4.15.tar.xz", ErrorCode::name_bad_extension},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-arch.zip", ErrorCode::name_malformed},   // truncated
      {"cudnn-windows-x86_64-9.1.0.70-archive.zip", ErrorCode::name_malformed},       // no CUDA variant
      {"cudnn-windows-x86_64-9.1.0_cuda12-archive.zip", ErrorCode::name_bad_version}, // three parts
      {"cudnn-windows-x86_64-9.1.0.70.1_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-9.01.0.70_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-9.100.0.70_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-9..0.70_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-0.1.0.70_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-9.1.0.99999999999_cuda12-archive.zip", ErrorCode::name_bad_version},
      {"cudnn-windows-x86_64-9.1.0.70_cudaX-archive.zip", ErrorCode::name_malformed},
      {"cudnn-windows-x86_64-9.1.0.70_cuda-archive.zip", ErrorCode::name_malformed},
      {"cudnn-windows-x86_64-7.6.5.32_cuda10-archive.zip", ErrorCode::name_malformed}, // era before -archive
      {"cudnn-macos-x86_64-9.1.0.70_cuda12-archive.zip", ErrorCode::name_unknown_platform},
      {"cudnn-10.2-windows11-x64-v7.6.5.32.zip", ErrorCode::name_unknown_platform},
      {"cudnn-10-linux-x64-v7.6.5.32.tgz", ErrorCode::name_malformed},
      {"cudnn-10.2-linux-x64-7.6.5.32.tgz", ErrorCode::name_malformed},
      {"cudnn-10.2-linux-x64-v.tgz", ErrorCode::name_bad_version},
      {"cudnn-.zip", ErrorCode::name_malformed},
      {"cudnn-archive.zip", ErrorCode::name_malformed},
      // Unicode look-alikes: U+2010 hyphen, fullwidth full stop, Cyrillic es, ideographic full stop
      {"cudnn\xE2\x80\x90windows-x86_64-9.1.0.70_cuda12-archive.zip", ErrorCode::name_non_ascii},
      {"cudnn-windows-x86_64-9\xEF\xBC\x8E" "1.0.70_cuda12-archive.zip", ErrorCode::name_non_ascii},
      {"\xD1\x81udnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", ErrorCode::name_non_ascii},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive\xE3\x80\x82zip", ErrorCode::name_non_ascii},
      {"cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip\xFF", ErrorCode::name_non_ascii},
      {std::string("cudnn-windows-x86_64-9.1.0.70_cuda12-archive\0.zip", 50), ErrorCode::name_malformed},
  };
  for (const auto& c : cases) {
    INFO("name: " << c.name);
    const auto r = parse_archive_name(c.name);
    REQUIRE_FALSE(r);
    CHECK(error_id(r.error().code) == error_id(c.code));
    CHECK_FALSE(r.error().message.empty());
    CHECK_FALSE(r.error().hint.empty());
  }
}

TEST_CASE("look-alike characters are named in the error", "[archive_name]") {
  const auto r = parse_archive_name("cudnn\xE2\x80\x90windows-x86_64-9.1.0.70_cuda12-archive.zip");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("U+2010") && Catch::Contains("looks like -"));
}
