#include "cudnnctl/catalog/version_contract.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

std::string platform_for(const platform::HostPlatform& host) { return archive_platform_name(host.os, host.arch); }

std::string describe_platform(Os os, Arch arch) {
  if (arch == Arch::aarch64) return "Jetson (Tegra) ARM64 Linux";
  if (arch == Arch::sbsa) return "server ARM64 (SBSA) Linux";
  return fmt::format("{} {}", os == Os::windows ? "Windows" : os == Os::macos ? "macOS" : "Linux", to_string(arch));
}

} // namespace

std::string cuda_range(const SupportRow& row) {
  if (row.cuda_toolkits.empty()) return {};
  if (row.cuda_toolkits.size() == 1) return row.cuda_toolkits.front();
  return row.cuda_toolkits.front() + "-" + row.cuda_toolkits.back();
}

HostFit check_host_fit(const ArchiveName& name, const Catalog& catalog, const platform::HostPlatform& host) {
  HostFit fit;
  if (name.os == host.os && name.arch == host.arch) return fit;
  fit.runs_here = false;
  const std::string wanted_platform = platform_for(host);
  if (name.era != NamingEra::legacy && host.os != Os::macos) {
    ArchiveName alt = name;
    alt.platform = wanted_platform;
    alt.os = host.os;
    alt.arch = host.arch;
    alt.format = host.os == Os::windows ? ArchiveFormat::zip : ArchiveFormat::tar_xz;
    const auto candidate = canonical_name(alt);
    if (catalog.find_archive(candidate)) fit.suggested_name = candidate;
  }
  const std::string instead = fit.suggested_name.empty()
                                  ? fmt::format("the {} archive of a release that has one", wanted_platform)
                                  : fit.suggested_name;
  if (name.os == Os::windows && host.os == Os::linux_os) {
    fit.explanation =
        host.wsl ? fmt::format("this is a Windows archive and this machine is Linux under WSL2. Programs inside WSL2 are Linux "
                               "programs: they load libcudnn.so, never cudnn64_{}.dll, so they need {}. Install this zip on the "
                               "Windows side, or use it here only to prepare a Windows toolkit tree (install --cuda-path).",
                               name.version.major(), instead)
                 : fmt::format("this is a Windows archive and this machine runs Linux: Linux programs cannot load its DLLs. "
                               "Use {}; this zip can only prepare a Windows toolkit tree (install --cuda-path).",
                               instead);
  } else if (name.os != host.os) {
    fit.explanation = fmt::format("this archive is for {} and this machine is {}: its libraries cannot load here. Use {}.",
                                  describe_platform(name.os, name.arch), host.description, instead);
  } else if (name.arch == Arch::aarch64 && host.arch == Arch::sbsa) {
    fit.explanation = fmt::format("linux-aarch64 archives are built for Jetson (Tegra) only; this server ARM64 machine needs "
                                  "linux-sbsa: {}.",
                                  instead);
  } else {
    fit.explanation = fmt::format("this archive is built for {} and this machine is {}: its libraries cannot load here. Use {}.",
                                  describe_platform(name.os, name.arch), host.description, instead);
  }
  return fit;
}

std::optional<ReleasePin> pin_release(const ArchiveName& name, const Catalog& catalog) {
  const auto& v = name.version;
  if (v.count >= 3) return std::nullopt;
  ReleasePin pin;
  const std::string given = v.to_string();
  auto extends = [&](const std::string& full) { return full.size() > given.size() && full.starts_with(given + "."); };
  if (const auto* entry = catalog.find_archive(name.canonical); entry && extends(entry->version)) {
    pin.exact = true;
    pin.release = entry->version;
    pin.source = fmt::format("the catalog's entry for this name: NVIDIA's download URL {} (its folder names the release){}",
                             entry->url, entry->hashes.empty() || entry->hashes.front().sources.empty()
                                             ? std::string()
                                             : "; " + entry->hashes.front().sources.front());
    return pin;
  }
  if (const auto* p = catalog.legacy_pin(name.canonical); p && extends(p->release)) {
    pin.exact = true;
    pin.release = p->release;
    pin.source = p->source;
    return pin;
  }
  // the releases it can be: every catalog version that extends the given parts
  std::vector<std::string> candidates;
  for (const auto& a : catalog.archives())
    if (extends(a.version) && std::find(candidates.begin(), candidates.end(), a.version) == candidates.end()) candidates.push_back(a.version);
  std::sort(candidates.begin(), candidates.end(), [](const std::string& a, const std::string& b) { return compare_dotted(a, b) < 0; });
  if (candidates.empty()) {
    pin.range = fmt::format("any {}.x release", given);
    pin.source = "neither the catalog nor a sourced pin names the release published under this name";
  } else {
    pin.range = candidates.size() == 1 ? fmt::format("{}.x (the catalog knows {})", given, candidates.front())
                                       : fmt::format("{}.x: the catalog knows {} releases from {} to {}", given, candidates.size(),
                                                     candidates.front(), candidates.back());
    pin.source = fmt::format("no source pins this name to one release; the range is the catalog's {}.x releases", given);
  }
  return pin;
}

VersionContract make_contract(const ArchiveName& name, const Catalog& catalog, const platform::HostPlatform& host) {
  VersionContract c;
  c.name = name;
  c.cudnn_version = cudnn_version_macro(name.version);
  c.layout = expected_layout(name);
  c.catalog_origin = catalog.origin();
  if (const auto* entry = catalog.find_archive(name.canonical)) c.catalog_entry = *entry;
  for (const auto* row : catalog.support_for(name.version.release_label(), name.cuda_variant)) c.support.push_back(*row);
  if (const auto* rel = catalog.release(name.version.release_label())) c.release = *rel;
  c.host = check_host_fit(name, catalog, host);
  c.pin = pin_release(name, catalog);
  return c;
}

} // namespace cudnnctl
