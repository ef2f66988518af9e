#pragma once
// install and uninstall: verify (fail-closed) -> extract into staging inside the toolkit's state folder
// (same file system, so every placement is a rename) -> check content against the name -> plan ->
// one journaled transaction that backs up what it replaces, moves the new files in and writes the
// receipt. A lock keeps two runs off one toolkit; every run first finishes or rolls back an interrupted one.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/archive/verified_extract.hpp"
#include "cudnnctl/archive/verify.hpp"
#include "cudnnctl/install/install_fs.hpp"
#include "cudnnctl/install/install_plan.hpp"
#include "cudnnctl/install/receipt.hpp"

namespace cudnnctl {

struct InstallRequest {
  std::string archive_path;
  ArchiveName name;
  std::vector<ExpectedHash> expected;
  bool allow_unverified = false;
  Toolkit toolkit;
  std::vector<SupportRow> support;
  bool force = false;
  bool dry_run = false;
  std::string name_encoding;
  std::optional<std::uint64_t> catalog_size;
  std::function<void(std::uint64_t)> on_total;  // progress of the extraction: see ExtractOptions
  std::function<void(std::uint64_t)> on_bytes;
  // Asked with the staged folder that holds the archive's libraries (lib/ of a Linux archive, the folder of
  // cudnn64_N.dll of a Windows one), after the hash and the content checks and before anything is placed (the
  // host's glibc / libstdc++ floor, the GPU code for the machine's GPUs): an error stops the install.
  std::function<Result<void>(const std::string& staged_library_dir)> check_staged_libraries;
  // Instead of verifying and extracting `archive_path`: fills the (empty) staging folder with `options` and
  // says what was verified (install VERSION: the archive inflates while it downloads, and the download's own
  // hash is the one checked; archive_path is where the cache will keep it). Asked with the lock held, after
  // recovery; an error drops the staging folder. The same archive already installed (the receipt's hash is
  // one of `expected`) is then judged without it.
  std::function<Result<VerifiedExtraction>(const std::string& staging, const ExtractOptions& options)> extract;
};

struct InstallOutcome {
  bool changed = false;
  bool dry_run = false;
  std::string summary;
  InstallPlan plan;
  std::optional<Receipt> receipt;
  std::string recovered;  // what the start-up recovery did, if anything
  std::vector<std::string> warnings;
};

struct UninstallOutcome {
  bool changed = false;
  std::string summary;
  std::size_t removed = 0;
  std::size_t restored = 0;
  std::vector<std::string> kept;  // installed files edited since, kept as <path>.cudnnctl-edited (toolkit-relative)
  std::string recovered;
};

Result<InstallOutcome> install_archive(const InstallRequest& request, InstallFs& fs);
Result<UninstallOutcome> uninstall_cudnn(const Toolkit& toolkit, InstallFs& fs);
/// What install and uninstall do first, alone: with the toolkit's lock held, an interrupted transaction rolled
/// back (or its clean-up finished) and dead runs' staging folders removed. What it did, in words (empty: nothing).
Result<std::string> recover_toolkit_state(const Toolkit& toolkit, InstallFs& fs);

} // namespace cudnnctl
