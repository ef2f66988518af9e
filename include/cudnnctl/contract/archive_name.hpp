#pragma once
// An archive's file name, parsed into what it promises. Covers every NVIDIA naming era:
//   legacy (<= 8.2)   cudnn-<CUDA X.Y>-<os>-<arch>-v<version>.<tgz|zip>
//   8.3 - 8.4         cudnn-<platform>-<A.B.C.D>_cuda<X.Y>-archive.<tar.xz|zip>
//   8.5 - 8.7         cudnn-<platform>-<A.B.C.D>_cuda<X>-archive.<tar.xz|zip>
//   redist v2 (8.8+)  the same, cuda11/12/13 (and the one-off _cuda13.4 of 9.27.0 windows-arm64)
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/contract/version.hpp"

namespace cudnnctl {

enum class NamingEra { legacy, cuda_major_minor, cuda_major, redist_v2 };
enum class ArchiveFormat { zip, tar_xz, tgz };

std::string_view to_string(NamingEra era);
/// One-line description, e.g. "8.8 and later (redist v2): _cuda<major>".
std::string_view describe(NamingEra era);
std::string_view to_string(ArchiveFormat f);

struct ArchiveName {
  std::string given;          // the base name as given (after path reduction)
  std::string canonical;      // NVIDIA's exact spelling of this archive's name
  std::string platform;       // normalised: linux-x86_64, linux-sbsa, linux-aarch64, linux-ppc64le,
                              // windows-x86_64, windows-arm64, osx-x86_64
  std::string platform_token; // as spelled in the name (legacy: windows10-x64, linux-aarch64sbsa, ...)
  Os os = Os::linux_os;
  Arch arch = Arch::x86_64;
  Version version;
  std::string cuda_variant;   // "12", "11.5", legacy "10.2"
  NamingEra era = NamingEra::redist_v2;
  ArchiveFormat format = ArchiveFormat::zip;
  std::vector<std::string> warnings;  // lenient readings, e.g. the seed's hyphenated spelling

  /// The folder every member sits in: the name without extension, or "cuda" for legacy archives.
  std::string top_folder() const;
  /// CUDA major the build targets ("12" for _cuda12, "11" for _cuda11.5 or legacy 11.2).
  std::string cuda_major() const;
};

/// Parses a path or file name (a path is reduced to its base name, splitting on '/' and '\').
/// Refuses sibling products (cudnn_samples-, cudnn_jit-), installers (.exe, .deb, .rpm), names with
/// non-ASCII characters (Unicode look-alikes), overlong, truncated and malformed names.
Result<ArchiveName> parse_archive_name(std::string_view path_or_name);

/// Rebuilds NVIDIA's spelling from the fields (round-trips parse_archive_name of a canonical name).
std::string canonical_name(const ArchiveName& n);

/// The platform part of NVIDIA's archive names for an OS and architecture ("linux-sbsa", "windows-arm64");
/// one not published (macOS) is spelled the same way, e.g. "osx-x86_64".
std::string archive_platform_name(Os os, Arch arch);

/// What a cuDNN archive name looks like, for error messages.
std::string_view archive_name_help();

} // namespace cudnnctl
