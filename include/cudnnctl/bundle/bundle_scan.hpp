#pragma once
// Finding framework bundles on disk and reading what they are: the folders below a site-packages (or a
// conda prefix) that hold a cuDNN main library, their owner (RECORD / conda-meta), version, CUDA major
// of the consumer, architecture, and whether the files still match the owner's RECORD.
#include <map>
#include <string>
#include <vector>

#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/bundle/bundle_walk.hpp"  // find_bundle_dirs
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// The pip distribution or conda package whose records list `dir`'s main library, looking in the
/// folders above `dir` (at most six levels up); nullopt when none does.
std::optional<BundleOwner> find_owner(const std::string& dir, const std::string& main_file);

/// SHA-256 (hex) of each cuDNN file in `dir`, by name; a file that cannot be read is left out.
std::map<std::string, std::string> hash_files(const std::string& dir, const std::vector<std::string>& files);

/// Compares the files with the owner's RECORD: original, modified (with the first differing file in
/// `note`), or unrecorded when no RECORD lists them. Pure.
BundleState record_state(const std::string& dir, const std::map<std::string, std::string>& sha256_by_name,
                         const std::optional<BundleOwner>& owner, std::string* note);

/// The architecture of a library file (ELF e_machine or PE machine, named like Bundle::arch); empty unknown.
std::string library_arch(const std::string& file, Os os);

/// The file names in a folder, sorted (empty when it cannot be read).
std::vector<std::string> names_in(const std::string& dir);

/// The site folders an environment names, searched when none is given (`bundle list`, the doctor): for
/// each of $VIRTUAL_ENV and $CONDA_PREFIX that is set, its lib, Lib/site-packages and Library/bin.
std::vector<std::string> env_bundle_sites(const platform::Environment& env);

/// The command line that makes interpreter `exe` print its site folders (site.getsitepackages() and the
/// user's), one a line.
std::vector<std::string> python_sites_command(const std::string& exe);

/// Those lines as folders: trailing CR and blanks cut, empty lines left out.
std::vector<std::string> parse_site_lines(std::string_view printed);

/// Runs python_sites_command(exe) in a child process and parses what it prints.
Result<std::vector<std::string>> python_site_dirs(const std::string& exe);

/// What `dir`'s names and metadata say (OS, files, owner, version, architecture, CUDA major), without
/// reading the libraries' bytes: no hashes, no state. Errors when `dir` is not a folder; a folder with no
/// cuDNN file is returned with no files.
Result<Bundle> describe_bundle(const std::string& dir);
/// describe_bundle, then each file's SHA-256 and the state they give against the owner's records; everything
/// but the receipt's part of the state (bundle_receipt does that).
Result<Bundle> read_bundle(const std::string& dir);

} // namespace cudnnctl
