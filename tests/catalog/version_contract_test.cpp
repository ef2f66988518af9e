#include <catch2/catch.hpp>

#include "cudnnctl/catalog/version_contract.hpp"

using namespace cudnnctl;

namespace {
platform::HostPlatform host(Os os, Arch arch, bool wsl = false) {
  platform::HostPlatform h;
  h.os = os;
  h.arch = arch;
  h.wsl = wsl;
  h.description = "test host";
  return h;
}
VersionContract contract_for(const char* name, const platform::HostPlatform& h) {
  const auto n = parse_archive_name(name);
  REQUIRE(n);
  return make_contract(*n, Catalog::embedded(), h);
}
} // namespace

TEST_CASE("the seed archive's contract", "[version_contract]") {
  const auto c = contract_for("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", host(Os::windows, Arch::x86_64));
  CHECK(c.cudnn_version == 90100u);
  REQUIRE(c.catalog_entry);
  CHECK(c.catalog_entry->hashes[0].size == 669629858u);
  REQUIRE(c.support.size() == 1);
  CHECK(cuda_range(c.support[0]) == "12.0-12.4");
  REQUIRE(c.release);
  CHECK(c.release->date == "2024-04-12");
  CHECK(c.host.runs_here);
}

TEST_CASE("a Windows archive on Linux under WSL2 is the seed's mistake and says which archive to use", "[version_contract]") {
  const auto c = contract_for("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", host(Os::linux_os, Arch::x86_64, true));
  CHECK_FALSE(c.host.runs_here);
  CHECK_THAT(c.host.explanation, Catch::Contains("WSL2"));
  CHECK(c.host.suggested_name == "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz");
}

TEST_CASE("architecture mismatches are explained", "[version_contract]") {
  const auto arm = contract_for("cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz", host(Os::linux_os, Arch::x86_64));
  CHECK_FALSE(arm.host.runs_here);
  CHECK(arm.host.suggested_name == "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz");
  const auto jetson = contract_for("cudnn-linux-aarch64-9.1.0.70_cuda12-archive.tar.xz", host(Os::linux_os, Arch::sbsa));
  CHECK_FALSE(jetson.host.runs_here);
  CHECK_THAT(jetson.host.explanation, Catch::Contains("Jetson"));
  CHECK(jetson.host.suggested_name == "cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz");
}

TEST_CASE("what the catalog does not know is not guessed", "[version_contract]") {
  const auto c = contract_for("cudnn-linux-x86_64-9.99.0.1_cuda13-archive.tar.xz", host(Os::linux_os, Arch::x86_64));
  CHECK_FALSE(c.catalog_entry);
  CHECK(c.support.empty());
  CHECK_FALSE(c.release);
  CHECK(c.cudnn_version == 99900u);
  const auto no_matrix = contract_for("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz", host(Os::linux_os, Arch::x86_64));
  CHECK(no_matrix.catalog_entry);
  CHECK(no_matrix.support.empty());
}

TEST_CASE("short legacy version fields: pinned by the catalog or a sourced pin, else a range", "[version_contract]") {
  const auto& cat = Catalog::embedded();
  auto pin = [&](const char* name) { return pin_release(*parse_archive_name(name), cat); };
  const auto seven = pin("cudnn-9.0-windows10-x64-v7.zip");
  REQUIRE(seven);
  CHECK(seven->exact);
  CHECK(seven->release == "7.0.4");
  CHECK_THAT(seven->source, Catch::Contains("v7.0.4/cudnn-9.0-windows10-x64-v7.zip"));
  const auto in_catalog = pin("cudnn-9.1-linux-x64-v7.1.tgz");
  REQUIRE(in_catalog);
  CHECK(in_catalog->exact);
  CHECK(in_catalog->release == "7.1.3");
  CHECK_THAT(in_catalog->source, Catch::Contains("/v7.1.3/"));
  const auto unknown = pin("cudnn-9.0-linux-x64-v7.tgz");
  REQUIRE(unknown);
  CHECK_FALSE(unknown->exact);
  CHECK_THAT(unknown->range, Catch::Contains("7.x") && Catch::Contains("7.6.5"));
  const auto nothing = pin("cudnn-9.0-linux-x64-v4.tgz");
  REQUIRE(nothing);
  CHECK(nothing->range == "any 4.x release");
  CHECK_FALSE(pin("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"));
}
