#pragma once
// Reading the package managers' records from the disk under a root, bounded (each file at most
// k_owner_record_max bytes, each folder at most k_owner_folder_max entries; a FIFO, a device or a link where a
// record should be counts as no record). The text goes through owner_records.hpp's parsers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

inline constexpr std::uint64_t k_owner_record_max = 32ull << 20;
inline constexpr std::size_t k_owner_folder_max = 100000;

/// A target path (absolute, as the target system names it) as this machine reaches it: under `root` ("/": itself).
std::string under_root(const std::string& root, const std::string& target);

/// One package and the target paths it lists.
struct PackageRecord {
  Owner owner;
  std::vector<std::string> paths;
};

/// Which packages' paths to keep: all, or only those of packages whose record names cuDNN at all (a quick
/// search of the text before it is parsed: most of a system's 1 000 lists do not).
enum class RecordFilter { all, naming_cudnn };

/// dpkg: each installed package of <root>/var/lib/dpkg/status with the paths of its info/<pkg>[:arch].list.
std::vector<PackageRecord> read_dpkg_records(const std::string& root, RecordFilter filter = RecordFilter::all);
/// Debian's nvidia-cudnn downloader: <root>/var/lib/nvidia-cudnn/filelist.txt (version from dpkg's status).
std::vector<PackageRecord> read_nvidia_cudnn_filelist(const std::string& root, RecordFilter filter = RecordFilter::all);
/// pacman: <root>/var/lib/pacman/local/*/{desc,files}.
std::vector<PackageRecord> read_pacman_records(const std::string& root, RecordFilter filter = RecordFilter::all);

/// rpm: rpm_database.hpp (the `rpm` program, else rpmdb.sqlite read directly).

/// conda: the conda-meta/*.json of the prefix above `host_path` (up to four folders up) that lists it.
std::optional<Owner> conda_owner(const std::string& host_path);
/// pip: the *.dist-info/RECORD of the site folder above `host_path` (the nearest folder holding *.dist-info
/// folders, up to six up) that lists it.
std::optional<Owner> pip_owner(const std::string& host_path);
/// cudnnctl: the receipt (<toolkit>/.cudnnctl/receipt.json, up to three folders up) that lists it.
std::optional<Owner> receipt_owner(const std::string& host_path);

} // namespace cudnnctl
