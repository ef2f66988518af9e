#pragma once
// The package managers' own records, read as untrusted text: pure parsers (no I/O), so each is tested on
// hostile bytes. A record that breaks its format yields nothing rather than a guess: a name or version with a
// byte outside what its manager allows is dropped, never printed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

/// One stanza of /var/lib/dpkg/status that is installed ("Status: <want> ok installed").
struct DpkgPackage {
  std::string name;     // "libcudnn9-cuda-13"
  std::string arch;     // "amd64", "all"; empty when missing
  std::string version;  // "9.19.0.56-1"
  bool held = false;    // want "hold" (apt-mark hold, dpkg --set-selections)
};
/// The installed packages in dpkg's status file (RFC 822 stanzas; continuation lines skipped).
std::vector<DpkgPackage> parse_dpkg_status(std::string_view text);

/// A list of absolute paths, one a line (dpkg's info/<package>.list, nvidia-cudnn's filelist.txt): lines that
/// are not absolute ('/' first) are left out, so is a path with a "." or ".." component ("/." too), and a
/// trailing '/' is dropped.
std::vector<std::string> parse_path_list(std::string_view text);

/// pacman's local/<name>-<version>/desc: %NAME% and %VERSION%.
struct PacmanDesc {
  std::string name, version;
};
std::optional<PacmanDesc> parse_pacman_desc(std::string_view text);
/// pacman's local/<name>-<version>/files: the %FILES% section's paths, made absolute ("usr/lib/x" -> "/usr/lib/x");
/// folders (a trailing '/') and paths with a "." or ".." component left out.
std::vector<std::string> parse_pacman_files(std::string_view text);

/// A pip RECORD's paths (the first CSV column; a quoted one unquoted), relative to the site folder.
std::vector<std::string> parse_record_paths(std::string_view text);

/// A conda-meta/<package>.json: the package's name, version and prefix-relative files.
struct CondaRecord {
  std::string name, version;
  std::vector<std::string> files;
};
std::optional<CondaRecord> parse_conda_record(std::string_view text);

/// A pip *.dist-info folder's name: "nvidia_cudnn_cu12-9.1.0.70.dist-info" -> name, version.
std::optional<std::pair<std::string, std::string>> parse_dist_info_name(std::string_view folder);

/// A place under NVIDIA's Windows cuDNN installer's folder (`...\NVIDIA\CUDNN\v9.1\bin\12.4\` or, from 9.18,
/// `...\bin\12.9\x64\`), read from a path with either separator, any case.
struct InstallerPlace {
  std::string release;  // "9.1" (the v9.x folder)
  std::string cuda;     // "12.4" (the CUDA folder under bin, include or lib); empty above it
  std::string root;     // the path up to and including v9.x, as given
};
std::optional<InstallerPlace> windows_installer_place(std::string_view path);

/// True for a path fit to compare and print as a package's file: absolute ('/' first), no control byte, at most
/// 4096 bytes, no "." or ".." component ("/." too).
bool plain_absolute_path(std::string_view p);
/// The file name (the last component of `path`) says "cudnn", in any case: the files a cuDNN package holds.
bool names_cudnn(std::string_view path);

/// True for a name or version every manager here allows (ASCII letters, digits and ._+-~:@ ; 1..200 bytes).
bool plain_token(std::string_view s);

} // namespace cudnnctl
