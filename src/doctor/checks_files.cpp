// Layer 2: the files in the toolkit, the receipt, the search path and other copies of cuDNN.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/env/display_path.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

const Toolkit* files_toolkit(const DoctorFacts& f) { return f.major ? f.tk() : nullptr; }

// the toolkit's DLL folder as this machine writes it (bin\x64 on Windows, bin/x64 elsewhere)
std::string t_dll_dir(const DoctorFacts& f) {
  return windows_toolkit_path_here(f.tk() ? f.tk()->runtime_dir() : std::string("bin"));
}

// a transaction cudnnctl did not finish (killed mid-install), and staging folders of runs that died
void check_files_interrupted(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t) return;
  const auto& i = f.interrupted;
  const auto quoted = t->root.find_first_of(" \t'\"") == std::string::npos ? t->root : "\"" + t->root + "\"";
  if (i.journal_phase == "applying" || !i.journal_error.empty()) {
    auto c = make_check("files.interrupted", 2, CheckStatus::fail,
                        i.journal_error.empty()
                            ? fmt::format("an interrupted cudnnctl transaction: '{}' stopped before its commit point, so the toolkit holds part "
                                          "old, part new files",
                                          i.journal_description)
                            : fmt::format("an interrupted cudnnctl transaction whose journal cannot be read: {}", i.journal_error));
    c.cause = "a cudnnctl install or uninstall was killed (or the machine lost power) while it moved files; its journal says which";
    c.fix = fmt::format("run `cudnnctl uninstall --cuda-path {}`: it rolls the interrupted transaction back first (so does the next "
                        "`cudnnctl install`, which then installs)",
                        quoted);
    out.push_back(std::move(c));
  } else if (i.journal_phase == "committed") {
    auto c = make_check("files.interrupted", 2, CheckStatus::warn,
                        fmt::format("'{}' committed but did not finish its clean-up (old files and the journal are still in {}/.cudnnctl)",
                                    i.journal_description, t->root));
    c.cause = "a cudnnctl run was killed after its commit point; the new files are in place";
    c.fix = fmt::format("run `cudnnctl uninstall --cuda-path {}` or any `cudnnctl install` into it: each finishes the clean-up first", quoted);
    out.push_back(std::move(c));
  }
  if (!i.staging.empty()) {
    auto c = make_check("files.interrupted", 2, CheckStatus::warn,
                        fmt::format("{} staging folder{} left by a cudnnctl run that did not finish: {}", i.staging.size(),
                                    i.staging.size() > 1 ? "s" : "", fmt::join(i.staging, ", ")));
    c.cause = "an install was killed while it extracted the archive; its staging folder holds files the toolkit does not use";
    c.fix = "when no cudnnctl is running, delete the folder" + std::string(i.staging.size() > 1 ? "s" : "") + " (nothing in the toolkit refers to them)";
    out.push_back(std::move(c));
  }
}

void check_files_cudnn(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t) return;
  if (!f.major) {
    // NVIDIA's Windows installer never writes into the toolkit: its copy, when one fits, is what programs can load
    if (const auto* copy = installer_copy_for_toolkit(f)) {
      auto c = make_check("files.cudnn", 2, copy->on_path ? CheckStatus::warn : CheckStatus::fail,
                          fmt::format("no cuDNN library in {}; NVIDIA's cuDNN installer put cuDNN {} for CUDA {} in {}, {} (files.windows_installer)",
                                      f.runtime_dir, copy->version.empty() ? copy->release : copy->version, copy->cuda, copy->dir,
                                      copy->on_path ? "which PATH names: programs load it, build tools that look in the toolkit do not find it"
                                                    : "which PATH does not name"),
                          "files.cudnn.windows-installer");
      out.push_back(std::move(c));
      return;
    }
    out.push_back(make_check("files.cudnn", 2, CheckStatus::fail, fmt::format("no cuDNN library in {}", f.runtime_dir), "files.cudnn"));
    return;
  }
  if (!f.unloadable.empty()) {
    auto c = make_check("files.cudnn", 2, CheckStatus::fail,
                        fmt::format("{} has cuDNN's name but is not a shared library: {}", f.runtime_dir, fmt::join(f.unloadable, "; ")));
    c.cause = "the file is damaged, truncated, a text file or a failed download: the loader refuses it (\"file too short\", \"invalid ELF header\")";
    c.fix = "reinstall cuDNN with cudnnctl install (it re-places the files that differ)";
    out.push_back(std::move(c));
    return;
  }
  std::set<unsigned> majors;
  for (const auto& n : f.lib_names)
    if (const auto c = classify_cudnn_file(n, t->os); c && c->main() && c->full_version.empty()) majors.insert(c->major);
  out.push_back(make_check("files.cudnn", 2, CheckStatus::pass,
                           fmt::format("cuDNN {} in {}{}", f.header ? f.header->text() : fmt::format("{}.x", *f.major),
                                       f.runtime_dir,
                                       majors.size() > 1 ? fmt::format(" (and libraries of {} other major versions)", majors.size() - 1) : "")));
}

// sub-libraries of another major left behind (cudnn_ops_infer64_8.dll beside cuDNN 9)
void check_files_stale(const DoctorFacts& f, Checks& out) {
  const auto* t = files_toolkit(f);
  if (!t) return;
  std::vector<std::string> stale;
  for (const auto& n : f.lib_names)
    if (const auto c = classify_cudnn_file(n, t->os); c && c->full_version.empty() && c->major != *f.major) stale.push_back(n);
  std::sort(stale.begin(), stale.end());
  if (!stale.empty())
    out.push_back(make_check("files.stale", 2, CheckStatus::warn,
                             fmt::format("{} holds cuDNN {} and {} files of other majors: {}", f.runtime_dir, *f.major, stale.size(), fmt::join(stale, ", ")),
                             "files.stale"));
  // copies of older majors on the search path: programs built for those load them
  if (!f.search || !f.search_skipped.empty()) return;
  std::vector<std::string> others;
  for (const auto& c : f.search->copies)
    if (c.major < *f.major) others.push_back(fmt::format("cuDNN {} in {} (via {})", c.version, c.dir, c.via));
  if (!others.empty())
    out.push_back(make_check("files.stale", 2, CheckStatus::warn, fmt::format("older cuDNN copies on the search path: {}", fmt::join(others, "; ")),
                             "files.stale"));
}

// completeness: the sub-libraries this major has, found by pattern; the core set must be there
void check_files_complete(const DoctorFacts& f, Checks& out) {
  const auto* t = files_toolkit(f);
  if (!t) return;
  const auto subs = cudnn_sub_library_files(f.lib_names, *f.major, t->os);
  std::vector<std::string> missing;
  // the header's release names the set (9.21 adds engines_tensor_ir, 9.22 ext), else the major's
  const auto expected = f.header && f.header->major == *f.major
                            ? sub_library_names(Version{{f.header->major, f.header->minor, f.header->patch, 0}, 3})
                            : sub_library_names(*f.major);
  for (const auto& s : expected) {
    if (s == "cudnn") continue;
    const auto file = library_file_name(t->os, s, *f.major);
    if (std::none_of(subs.begin(), subs.end(), [&](const std::string& n) { return t->os == Os::windows ? iequals_ascii(n, file) : n == file; }))
      missing.push_back(file);
  }
  if (!missing.empty())
    out.push_back(make_check("files.complete", 2, CheckStatus::fail, fmt::format("missing sub-libraries: {}", fmt::join(missing, ", ")), "files.complete"));
  else
    out.push_back(make_check("files.complete", 2, CheckStatus::pass, fmt::format("{} sub-libraries: {}", subs.size(), fmt::join(subs, ", "))));
}

// Windows DLLs, read from any machine: damaged or 32-bit files, imports of cuDNN DLLs that are not
// there, and zlibwapi.dll for cuDNN 8.
void check_files_dlls(const DoctorFacts& f, Checks& out) {
  const auto* t = files_toolkit(f);
  if (!t || t->os != Os::windows) return;
  auto present = [&](const std::string& name) {
    return std::any_of(f.lib_names.begin(), f.lib_names.end(), [&](const std::string& d) { return iequals_ascii(d, name); });
  };
  // the toolkit's machine (contract/layout): an ARM64 toolkit keeps its DLLs in bin\arm64, an x64 one in bin or bin\x64
  const std::uint16_t want = windows_machine_of_dll_dir(t->dll_dir).pe_machine;
  std::vector<std::string> problems;
  for (const auto& [d, pe] : f.dlls) {
    if (!pe) {
      problems.push_back(fmt::format("{} is not a readable DLL (emptied or damaged?)", d));
      continue;
    }
    if (pe->machine != want)
      problems.push_back(fmt::format("{} is an {} DLL in an {} toolkit: its programs cannot load it (Windows error 193)", d,
                                     pe_machine_name(pe->machine), pe_machine_name(want)));
    for (const auto& imp : pe->imports) {
      if ((classify_cudnn_file(imp, Os::windows) || to_lower_ascii(imp) == "zlibwapi.dll") && !present(imp))
        problems.push_back(fmt::format("{} imports {}, which is missing", d, imp));
    }
  }
  if (*f.major == 8 && !present("zlibwapi.dll"))
    problems.push_back("zlibwapi.dll is missing: cuDNN 8 on Windows needs it (\"Could not locate zlibwapi.dll\")");
  if (!problems.empty())
    out.push_back(make_check("files.dlls", 2, CheckStatus::fail, fmt::format("{}", fmt::join(problems, "; ")), "files.dlls"));
  else
    out.push_back(make_check("files.dlls", 2, CheckStatus::pass, fmt::format("{} DLLs are {} and their cuDNN imports are present", f.dlls.size(), pe_machine_name(want))));
}

void check_files_headers(const DoctorFacts& f, Checks& out) {
  const auto* t = files_toolkit(f);
  if (!t || f.header) return;
  out.push_back(make_check("files.headers", 2, CheckStatus::warn, fmt::format("no cudnn_version.h in {}/{}", t->root, t->include_dir), "files.headers"));
}

// versions: file names (Linux real files carry major.minor.patch), or the DLLs' version resources, against the header
void check_files_versions(const DoctorFacts& f, Checks& out) {
  const auto* t = files_toolkit(f);
  if (!t) return;
  if (t->os == Os::windows) {
    FileSnapshot snap;
    for (const auto& [name, pe] : f.dlls) snap.pe.emplace(join_path(f.runtime_dir, name), pe);
    snap.dirs[f.runtime_dir] = f.lib_names;
    out.push_back(windows_dll_versions(f.runtime_dir, *f.major, f.header ? f.header->text() : std::string(), snap));
    return;
  }
  std::set<std::string> versions;
  for (const auto& n : f.lib_names)
    if (const auto c = classify_cudnn_file(n, t->os); c && !c->full_version.empty() && c->major == *f.major) versions.insert(c->full_version);
  if (versions.size() > 1)
    out.push_back(make_check("files.versions", 2, CheckStatus::fail, fmt::format("mixed cuDNN versions in {}: {}", f.runtime_dir, fmt::join(versions, ", ")),
                             "files.versions.mixed"));
  else if (versions.size() == 1 && f.header && *versions.begin() != f.header->text())
    out.push_back(make_check("files.versions", 2, CheckStatus::fail,
                             fmt::format("the libraries are {} but cudnn_version.h says {}", *versions.begin(), f.header->text()), "files.versions.header"));
  else
    out.push_back(make_check("files.versions", 2, CheckStatus::pass,
                             versions.empty() ? "file names carry only the major; the header gives the version"
                                              : fmt::format("libraries and header agree on {}", *versions.begin())));
}

// the receipt, when cudnnctl installed it
void check_files_receipt(const DoctorFacts& f, Checks& out) {
  if (!files_toolkit(f)) return;
  const auto& r = f.receipt;
  switch (r.state) {
  case ReceiptFacts::State::missing:
    out.push_back(make_check("files.receipt", 2, CheckStatus::skip, "not installed by cudnnctl (no receipt): file hashes cannot be checked"));
    break;
  case ReceiptFacts::State::ok:
    if (!r.unlisted.empty())  // another release's files beside the installed ones: a mixed set the receipt cannot vouch for
      out.push_back(make_check("files.receipt", 2, CheckStatus::warn,
                               fmt::format("all {} files match the receipt of {}, but {} cuDNN file{} beside them {} not from it: {}", r.files,
                                           r.canonical_name, r.unlisted.size(), r.unlisted.size() == 1 ? "" : "s",
                                           r.unlisted.size() == 1 ? "is" : "are", fmt::join(r.unlisted, ", ")),
                               "files.versions.mixed"));
    else
      out.push_back(make_check("files.receipt", 2, CheckStatus::pass, fmt::format("all {} files match the receipt of {}", r.files, r.canonical_name)));
    break;
  case ReceiptFacts::State::differs:
    out.push_back(make_check("files.receipt", 2, CheckStatus::fail,
                             fmt::format("{} files differ from the receipt: {}", r.problems.size(), r.problems.front()), "files.receipt"));
    break;
  case ReceiptFacts::State::corrupt: break;
  }
}

// the search path: which copy programs load
void check_files_search_path(const DoctorFacts& f, Checks& out) {
  if (!files_toolkit(f)) return;
  if (!f.search_skipped.empty()) {
    out.push_back(make_check("files.search_path", 2, CheckStatus::skip, f.search_skipped));
    return;
  }
  if (!f.search) return;
  const auto& sh = *f.search;
  const auto winner = std::find_if(sh.copies.begin(), sh.copies.end(), [](const CudnnCopy& c) { return c.wins; });
  if (!sh.explanations.empty()) {
    auto c = make_check("files.search_path", 2, winner != sh.copies.end() && !winner->installed ? CheckStatus::fail : CheckStatus::warn,
                        sh.explanations.front(), "files.search_path");
    if (f.model == LoaderModel::windows_pe)
      c.fix = fmt::format("on {}: `cudnnctl path --apply --scope user` (from an elevated prompt: `--scope machine`) puts the toolkit's "
                          "{} folder first on PATH; programs started afterwards load it",
                          f.offline ? "that Windows machine" : "this machine", t_dll_dir(f));
    else if (winner != sh.copies.end() && !winner->installed)  // the owner's own command for the copy that wins
      c.fix = fmt::format("the copy programs load ({}) is {}: remove it the way its owner does (`{}`), or put {} first "
                          "(`cudnnctl path --apply`)",
                          winner->dir, describe(winner->owner), removal_fix(winner->owner, winner->dir + "/" + winner->main_file),
                          f.runtime_dir);
    out.push_back(std::move(c));
  }
  else
    out.push_back(make_check("files.search_path", 2, CheckStatus::pass,
                             fmt::format("programs load cuDNN {} from {}", winner != sh.copies.end() ? winner->version : "?",
                                         winner != sh.copies.end() ? winner->dir : f.runtime_dir)));
}

} // namespace

const std::vector<CheckSpec>& files_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.interrupted", 2, need_receipt, &check_files_interrupted, "a cudnnctl transaction that did not finish: a journal left mid-apply (fail, with the command that rolls it back), clean-up or staging folders left (warn)", ""},
      {"files.cudnn", 2, need_toolkit, &check_files_cudnn, "the cuDNN libraries in the toolkit and their majors", ""},
      {"files.stale", 2, need_search_path, &check_files_stale, "sub-libraries of another major (cuDNN 8's *_infer and *_train files beside cuDNN 9) and older copies of this major", ""},
      {"files.complete", 2, need_toolkit, &check_files_complete, "the complete set of sub-libraries for the release (found by pattern; the core set required)", ""},
      {"files.dlls", 2, need_toolkit, &check_files_dlls, "Windows DLLs read as PE files: damaged, 32-bit, cuDNN imports missing, zlibwapi.dll for 8.x", ""},
      {"files.headers", 2, need_toolkit, &check_files_headers, "the cuDNN headers and the version cudnn_version.h names", ""},
      {"files.versions", 2, need_toolkit, &check_files_versions, "the headers' version against the libraries' file names (Windows: each DLL's version resource), so a library of another release is named", ""},
      {"files.receipt", 2, need_receipt, &check_files_receipt, "with an install receipt, every installed file's size and CRC-32 (SHA-256 in receipts of schema 1; finds a DLL emptied by antivirus)", ""},
      {"files.search_path", 2, need_search_path, &check_files_search_path, "which cuDNN copy the loader picks, and every copy that shadows the toolkit's (the cudnnctl path scan)", ""},
  };
  return rows;
}

} // namespace cudnnctl
