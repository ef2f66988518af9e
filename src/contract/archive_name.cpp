#include "cudnnctl/contract/archive_name.hpp"

#include <array>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

struct PlatformToken {
  std::string_view token;     // as in the file name
  std::string_view platform;  // normalised platform
  Os os;
  Arch arch;
};

// Modern names (8.3 and later), from NVIDIA's redistrib manifests.
constexpr std::array<PlatformToken, 6> k_modern_platforms{{
    {"linux-x86_64", "linux-x86_64", Os::linux_os, Arch::x86_64},
    {"linux-sbsa", "linux-sbsa", Os::linux_os, Arch::sbsa},
    {"linux-aarch64", "linux-aarch64", Os::linux_os, Arch::aarch64},
    {"linux-ppc64le", "linux-ppc64le", Os::linux_os, Arch::ppc64le},
    {"windows-x86_64", "windows-x86_64", Os::windows, Arch::x86_64},
    {"windows-arm64", "windows-arm64", Os::windows, Arch::arm64},
}};

// Legacy names (8.2 and earlier), from spack's url_for_version and conda-forge's history.
constexpr std::array<PlatformToken, 7> k_legacy_platforms{{
    {"linux-x64", "linux-x86_64", Os::linux_os, Arch::x86_64},
    {"linux-ppc64le", "linux-ppc64le", Os::linux_os, Arch::ppc64le},
    {"linux-aarch64sbsa", "linux-sbsa", Os::linux_os, Arch::sbsa},
    {"osx-x64", "osx-x86_64", Os::macos, Arch::x86_64},
    {"windows10-x64", "windows-x86_64", Os::windows, Arch::x86_64},
    {"windows7-x64", "windows-x86_64", Os::windows, Arch::x86_64},
    {"windows-x64", "windows-x86_64", Os::windows, Arch::x86_64},
}};

constexpr std::size_t k_max_name = 255;

std::optional<std::string_view> lookalike_of(char32_t cp) {
  switch (cp) {
  case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212:
  case 0xFE63: case 0xFF0D: case 0x00AD: return "-";
  case 0xFF0E: case 0x3002: case 0x2024: case 0xFF61: return ".";
  case 0xFF3F: case 0x2017: return "_";
  case 0x0441: return "c";
  case 0x0435: return "e";
  case 0x043E: case 0x03BF: return "o";
  case 0x0445: return "x";
  case 0x0430: return "a";
  case 0x0440: return "p";
  case 0x0456: return "i";
  case 0x00A0: case 0x3000: return "a space";
  default: break;
  }
  if (cp >= 0xFF10 && cp <= 0xFF19) return "a digit";
  if ((cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A)) return "a Latin letter";
  if (cp == 0xFFFD) return std::nullopt;
  return std::nullopt;
}

Result<void> check_characters(std::string_view name) {
  for (std::size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F)
        return fail(ErrorCode::name_malformed,
                    fmt::format("the file name has a control character (0x{:02X}) at byte {}", c, i),
                    "NVIDIA's archive names are plain ASCII; rename the file to its original name", std::string(name));
      ++i;
      continue;
    }
    const auto [cp, len] = decode_utf8(name.substr(i));
    std::string what = cp == 0xFFFD && len == 1 ? std::string("a byte that is not valid UTF-8")
                                               : fmt::format("the non-ASCII character {}", code_point_label(cp));
    if (const auto like = lookalike_of(cp)) what += fmt::format(", which looks like {}", *like);
    return fail(ErrorCode::name_non_ascii,
                fmt::format("the file name contains {} at byte {}", what, i),
                fmt::format("NVIDIA's archive names are plain ASCII. Rename the file to the name NVIDIA published ({}), "
                            "or download it again",
                            archive_name_help()),
                std::string(name));
  }
  return {};
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

Unexpected<Error> malformed(std::string_view name, std::string detail) {
  return fail(ErrorCode::name_malformed, fmt::format("'{}' is not a cuDNN archive name: {}", name, detail),
              std::string(archive_name_help()), std::string(name));
}

// parse_version's refusal of the version a name carries, made about that name, with the naming help.
Unexpected<Error> bad_version_in(std::string_view name, Error e) {
  e.path = std::string(name);
  e.hint = std::string(archive_name_help());
  return Unexpected<Error>(std::move(e));
}

// cuda<digits>[.<digits>] -> "12" / "11.5"
std::optional<std::string> parse_cuda_variant(std::string_view s) {
  const auto parts = split(s, '.');
  if (parts.size() > 2) return std::nullopt;
  for (auto p : parts)
    if (!parse_decimal(p, 2)) return std::nullopt;
  return std::string(s);
}

// The platform token at the start of `rest` (advanced past it and its '-'); the seed article's
// x86-64 spelling is taken and flagged.
Result<const PlatformToken*> parse_modern_platform(std::string_view name, std::string_view& rest, bool& seed_spelling) {
  const PlatformToken* platform = nullptr;
  for (const auto& p : k_modern_platforms) {
    if (starts_with(rest, p.token) && rest.size() > p.token.size() && rest[p.token.size()] == '-' &&
        (!platform || p.token.size() > platform->token.size()))
      platform = &p;
  }
  if (!platform) {
    // the seed article's spelling: x86-64 instead of x86_64
    for (std::string_view os : {"windows", "linux"}) {
      const std::string hyphenated = std::string(os) + "-x86-64-";
      if (starts_with(rest, hyphenated)) {
        seed_spelling = true;
        platform = os == "windows" ? &k_modern_platforms[4] : &k_modern_platforms[0];
        rest = rest.substr(hyphenated.size() - 1);
        break;
      }
    }
    if (!platform) {
      std::string known;
      for (const auto& p : k_modern_platforms) known += (known.empty() ? "" : ", ") + std::string(p.token);
      const auto dash = rest.find('-', rest.find('-') == std::string_view::npos ? 0 : rest.find('-') + 1);
      return fail(ErrorCode::name_unknown_platform,
                  fmt::format("'{}' names an unknown platform '{}'", name, rest.substr(0, dash)),
                  fmt::format("NVIDIA's platforms are {}", known), std::string(name));
    }
  } else {
    rest = rest.substr(platform->token.size());
  }
  rest = rest.substr(1);  // the '-' after the platform
  return platform;
}

// The naming era from the version, and the warnings for a CUDA variant NVIDIA never published in it.
Result<void> assign_modern_era(std::string_view name, ArchiveName& out) {
  const auto& v = out.version;
  const auto& variant = out.cuda_variant;
  const bool major_minor = variant.find('.') != std::string::npos;
  if (v.major() < 8 || (v.major() == 8 && v.minor() < 3))
    return malformed(name, fmt::format("version {} predates this naming (the '-archive' names start with cuDNN 8.3; "
                                       "older releases are named like cudnn-11.2-linux-x64-v8.1.1.33.tgz)",
                                       v.to_string()));
  if (v.major() == 8 && v.minor() <= 4) {
    out.era = NamingEra::cuda_major_minor;
    if (!major_minor)
      out.warnings.push_back(fmt::format("NVIDIA's {} archives carry the CUDA major.minor (e.g. _cuda11.5); '_cuda{}' "
                                         "was never published for this release",
                                         v.release_label(), variant));
  } else {
    out.era = (v.major() == 8 && v.minor() <= 7) ? NamingEra::cuda_major : NamingEra::redist_v2;
    if (major_minor && out.platform != "windows-arm64")
      out.warnings.push_back(fmt::format("since cuDNN 8.5 NVIDIA names carry only the CUDA major (_cuda{}); "
                                         "'_cuda{}' is unusual",
                                         variant.substr(0, variant.find('.')), variant));
  }
  return {};
}

Result<ArchiveName> parse_modern(std::string_view name, std::string_view stem, ArchiveName out, bool& seed_spelling) {
  // stem: cudnn-<platform>-<A.B.C.D>_cuda<X[.Y]>-archive
  std::string_view rest = stem.substr(std::string_view("cudnn-").size());
  rest = rest.substr(0, rest.size() - std::string_view("-archive").size());
  CUDNNCTL_TRY_ASSIGN(const PlatformToken* const platform, parse_modern_platform(name, rest, seed_spelling));

  auto cuda_pos = rest.find("_cuda");
  std::size_t marker = 5;
  if (cuda_pos == std::string_view::npos) {
    cuda_pos = rest.find("-cuda");
    if (cuda_pos == std::string_view::npos)
      return malformed(name, "the CUDA variant ('_cuda12' before '-archive') is missing");
    seed_spelling = true;
  }
  const auto version_text = rest.substr(0, cuda_pos);
  const auto variant_text = rest.substr(cuda_pos + marker);
  auto version = parse_version(version_text);
  if (!version) return bad_version_in(name, std::move(version).error());
  if (version->count != 4)
    return fail(ErrorCode::name_bad_version,
                fmt::format("'{}' has version '{}'; archive names since cuDNN 8.3 carry four numbers (A.B.C.D, e.g. 9.1.0.70)",
                            name, version_text),
                std::string(archive_name_help()), std::string(name));
  const auto variant = parse_cuda_variant(variant_text);
  if (!variant)
    return malformed(name, fmt::format("'cuda{}' is not a CUDA variant (expected e.g. cuda12 or cuda11.5)", variant_text));

  out.platform = std::string(platform->platform);
  out.platform_token = std::string(platform->token);
  out.os = platform->os;
  out.arch = platform->arch;
  out.version = *version;
  out.cuda_variant = *variant;
  CUDNNCTL_TRY(assign_modern_era(name, out));
  return out;
}

Result<ArchiveName> parse_legacy(std::string_view name, std::string_view stem, ArchiveName out) {
  // stem: cudnn-<CUDA X.Y>-<os>-<arch>-v<version>
  std::string_view rest = stem.substr(std::string_view("cudnn-").size());
  const auto dash = rest.find('-');
  if (dash == std::string_view::npos) return malformed(name, "nothing follows the CUDA version");
  const auto cuda = rest.substr(0, dash);
  const auto cuda_parts = split(cuda, '.');
  if (cuda_parts.size() != 2 || !parse_decimal(cuda_parts[0], 2) || !parse_decimal(cuda_parts[1], 2))
    return malformed(name, fmt::format("'{}' is not a CUDA version (legacy names start with cudnn-<CUDA X.Y>-, e.g. cudnn-10.2-)", cuda));
  rest = rest.substr(dash + 1);
  const auto vpos = rest.rfind("-v");
  if (vpos == std::string_view::npos) return malformed(name, "the cuDNN version ('-v<version>') is missing");
  const auto token = rest.substr(0, vpos);
  const PlatformToken* platform = nullptr;
  for (const auto& p : k_legacy_platforms)
    if (token == p.token) platform = &p;
  if (!platform) {
    std::string known;
    for (const auto& p : k_legacy_platforms) known += (known.empty() ? "" : ", ") + std::string(p.token);
    return fail(ErrorCode::name_unknown_platform, fmt::format("'{}' names an unknown platform '{}'", name, token),
                fmt::format("legacy cuDNN archives name their platform one of: {}", known), std::string(name));
  }
  auto version = parse_version(rest.substr(vpos + 2));
  if (!version) return bad_version_in(name, std::move(version).error());
  out.platform = std::string(platform->platform);
  out.platform_token = std::string(platform->token);
  out.os = platform->os;
  out.arch = platform->arch;
  out.version = *version;
  out.cuda_variant = std::string(cuda);
  out.era = NamingEra::legacy;
  if (version->count < 4)
    out.warnings.push_back(fmt::format("the name gives only '{}' of the version; the full four-part version is not in "
                                       "the name (read it from the archive's headers)",
                                       version->to_string()));
  return out;
}

} // namespace

std::string_view to_string(NamingEra era) {
  switch (era) {
  case NamingEra::legacy: return "legacy";
  case NamingEra::cuda_major_minor: return "8.3-8.4";
  case NamingEra::cuda_major: return "8.5-8.7";
  case NamingEra::redist_v2: return "redist-v2";
  }
  return "?";
}

std::string_view describe(NamingEra era) {
  switch (era) {
  case NamingEra::legacy: return "legacy (cuDNN <= 8.2): cudnn-<CUDA X.Y>-<os>-<arch>-v<version>, top folder cuda/";
  case NamingEra::cuda_major_minor: return "cuDNN 8.3-8.4: cudnn-<platform>-<A.B.C.D>_cuda<X.Y>-archive";
  case NamingEra::cuda_major: return "cuDNN 8.5-8.7: cudnn-<platform>-<A.B.C.D>_cuda<X>-archive";
  case NamingEra::redist_v2: return "redist v2 (cuDNN 8.8 and later): cudnn-<platform>-<A.B.C.D>_cuda<X>-archive";
  }
  return "?";
}

std::string_view to_string(ArchiveFormat f) {
  switch (f) {
  case ArchiveFormat::zip: return "zip";
  case ArchiveFormat::tar_xz: return "tar.xz";
  case ArchiveFormat::tgz: return "tgz";
  }
  return "?";
}

std::string_view archive_name_help() {
  return "a cuDNN archive is named like cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip or "
         "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz (cuDNN 8.3 and later), or "
         "cudnn-11.2-linux-x64-v8.1.1.33.tgz (8.2 and earlier)";
}

std::string ArchiveName::top_folder() const {
  if (era == NamingEra::legacy) return "cuda";
  std::string c = canonical;
  for (std::string_view ext : {".tar.xz", ".zip"})
    if (ends_with(c, ext)) return c.substr(0, c.size() - ext.size());
  return c;
}

std::string ArchiveName::cuda_major() const { return cuda_variant.substr(0, cuda_variant.find('.')); }

std::string archive_platform_name(Os os, Arch arch) {
  for (const auto& p : k_modern_platforms)
    if (p.os == os && p.arch == arch) return std::string(p.platform);
  if (os == Os::windows) return arch == Arch::arm64 ? "windows-arm64" : "windows-x86_64";
  return fmt::format("{}-{}", os == Os::macos ? "osx" : "linux", to_string(arch));
}

std::string canonical_name(const ArchiveName& n) {
  if (n.era == NamingEra::legacy)
    return fmt::format("cudnn-{}-{}-v{}.{}", n.cuda_variant, n.platform_token, n.version.to_string(), to_string(n.format));
  return fmt::format("cudnn-{}-{}_cuda{}-archive.{}", n.platform, n.version.to_string(), n.cuda_variant, to_string(n.format));
}

namespace {

// A name at all, of a sane length, in characters a cuDNN archive name can have.
Result<std::string_view> checked_file_name(std::string_view path_or_name) {
  std::string_view name = base_name(path_or_name);
  if (name.empty())
    return fail(ErrorCode::name_empty,
                path_or_name.empty() ? "no archive name was given" : fmt::format("'{}' ends in a folder separator, not a file name", path_or_name),
                std::string(archive_name_help()), std::string(path_or_name));
  if (name.size() > k_max_name)
    return fail(ErrorCode::name_too_long,
                fmt::format("the file name is {} bytes long; cuDNN archive names are well under {}", name.size(), k_max_name),
                std::string(archive_name_help()), std::string(name.substr(0, 64)) + "...");
  CUDNNCTL_TRY(check_characters(name));
  return name;
}

// The name without what a browser or wget adds: a URL query, a duplicate-download suffix " (1)".
std::string without_download_noise(std::string_view name, std::vector<std::string>& warnings) {
  std::string cleaned(name);
  if (const auto q = cleaned.find('?'); q != std::string::npos) {
    warnings.push_back(fmt::format("ignored the URL query '{}' at the end of the name", cleaned.substr(q)));
    cleaned.erase(q);
  }
  for (std::string_view ext : {".tar.xz", ".zip", ".tgz"}) {
    if (!ends_with(cleaned, ext)) continue;
    std::string stem = cleaned.substr(0, cleaned.size() - ext.size());
    const auto open = stem.rfind(" (");
    if (open != std::string::npos && stem.back() == ')' && all_digits(std::string_view(stem).substr(open + 2, stem.size() - open - 3))) {
      warnings.push_back(fmt::format("ignored the duplicate-download suffix '{}' in the name", stem.substr(open)));
      cleaned = stem.substr(0, open) + std::string(ext);
    }
  }
  return cleaned;
}

// Sibling products (samples, Graph-JIT), names that are not cuDNN's, and installers are refused by name.
Result<void> refuse_other_products(std::string_view name, std::string_view n) {
  if (starts_with(n, "cudnn_samples-") || starts_with(n, "cudnn_jit-") || starts_with(n, "cudnn_")) {
    const auto product = n.substr(0, n.find('-'));
    std::string what = product == "cudnn_samples" ? "NVIDIA's cuDNN samples archive (source code of the examples), not the library"
                       : product == "cudnn_jit"   ? "NVIDIA's cuDNN Graph-JIT archive (a Linux-only subset of cuDNN), not the full library"
                                                  : fmt::format("a sibling product '{}', not the cuDNN library archive", product);
    if (ends_with(n, ".exe"))
      return fail(ErrorCode::name_installer, fmt::format("'{}' is NVIDIA's graphical Windows installer, not a redistributable archive", name),
                  "cudnnctl installs the redistributable zip: cudnn-windows-x86_64-<A.B.C.D>_cuda<X>-archive.zip", std::string(name));
    return fail(ErrorCode::name_sibling_product, fmt::format("'{}' is {}", name, what),
                "download the library archive of the same release: cudnn-<platform>-<A.B.C.D>_cuda<X>-archive.<zip|tar.xz>",
                std::string(name));
  }
  if (!starts_with(n, "cudnn-"))
    return fail(ErrorCode::name_not_cudnn, fmt::format("'{}' is not a cuDNN archive name (it does not start with 'cudnn-')", name),
                std::string(archive_name_help()), std::string(name));
  for (std::string_view ext : {".exe", ".deb", ".rpm", ".msi"})
    if (ends_with(n, ext))
      return fail(ErrorCode::name_installer,
                  fmt::format("'{}' is an NVIDIA installer or local repository package ({}), not a redistributable archive", name, ext),
                  "install it with the system's package manager, or download the redistributable archive "
                  "(cudnn-<platform>-<A.B.C.D>_cuda<X>-archive.<zip|tar.xz>) for cudnnctl",
                  std::string(name));
  return {};
}

// The archive format from the extension, and the stem before it.
Result<std::string_view> split_extension(std::string_view name, std::string_view n, ArchiveFormat& format) {
  if (ends_with(n, ".tar.xz")) { format = ArchiveFormat::tar_xz; return n.substr(0, n.size() - 7); }
  if (ends_with(n, ".zip")) { format = ArchiveFormat::zip; return n.substr(0, n.size() - 4); }
  if (ends_with(n, ".tgz")) { format = ArchiveFormat::tgz; return n.substr(0, n.size() - 4); }
  const auto dot = n.find('.', n.rfind('-') == std::string_view::npos ? 0 : n.rfind('-'));
  return fail(ErrorCode::name_bad_extension,
              fmt::format("'{}' does not end in .zip, .tar.xz or .tgz{}", name,
                          dot == std::string_view::npos ? std::string(" (it has no extension: truncated?)")
                                                        : fmt::format(" (it ends in '{}')", n.substr(dot))),
              std::string(archive_name_help()), std::string(name));
}

// Windows archives are zips; Linux ones .tar.xz (.tgz in the legacy era).
Result<void> check_extension_fits(std::string_view name, const ArchiveName& a) {
  const bool windows = a.os == Os::windows;
  const bool is_zip = a.format == ArchiveFormat::zip;
  const bool wrong_linux_ext = !windows && ((a.era == NamingEra::legacy) != (a.format == ArchiveFormat::tgz));
  if (windows == is_zip && !wrong_linux_ext) return {};
  const std::string_view expected = windows ? "zip" : (a.era == NamingEra::legacy ? "tgz" : "tar.xz");
  return fail(ErrorCode::name_bad_extension,
              fmt::format("'{}' is a {} archive name with a .{} extension; NVIDIA ships these as .{}", name, a.platform, to_string(a.format),
                          expected),
              "the name must say what the file is: use the archive exactly as NVIDIA published it", std::string(name));
}

} // namespace

Result<ArchiveName> parse_archive_name(std::string_view path_or_name) {
  CUDNNCTL_TRY_ASSIGN(const std::string_view name, checked_file_name(path_or_name));
  ArchiveName out;
  out.given = std::string(name);
  const std::string cleaned = without_download_noise(name, out.warnings);
  const std::string_view n = cleaned;
  CUDNNCTL_TRY(refuse_other_products(name, n));
  CUDNNCTL_TRY_ASSIGN(const std::string_view stem, split_extension(name, n, out.format));

  Result<ArchiveName> parsed = Unexpected<Error>(Error{});
  bool seed_spelling = false;
  if (stem.size() > 6 && is_ascii_digit(stem[6])) {
    parsed = parse_legacy(name, stem, std::move(out));
  } else if (ends_with(stem, "-archive") && stem.size() > std::string_view("cudnn--archive").size()) {
    parsed = parse_modern(name, stem, std::move(out), seed_spelling);
  } else {
    return malformed(name, "it has neither the '-archive' ending of cuDNN 8.3+ names nor the CUDA version of legacy names");
  }
  if (!parsed) return parsed;
  CUDNNCTL_TRY(check_extension_fits(name, *parsed));
  parsed->canonical = canonical_name(*parsed);
  if (seed_spelling)
    parsed->warnings.push_back(fmt::format("'{}' is not NVIDIA's spelling (x86_64 and _cuda use underscores); the real archive is "
                                           "named '{}'",
                                           name, parsed->canonical));
  return parsed;
}

} // namespace cudnnctl
