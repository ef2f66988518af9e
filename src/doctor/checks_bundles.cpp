// Framework bundles of cuDNN (the bundle module's scan, docs/bundles.md) against the toolkit checked: which
// copy each framework loads, a bundle shadowing the toolkit's copy, a bundle changed behind cudnnctl's
// back, and a bundle of another cuDNN or CUDA major. Pure: facts only.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/env/loader_path.hpp"

namespace cudnnctl {

namespace {

constexpr int kLayer = 2;

// Who put the bundle there, in words: "torch 2.5.1", "nvidia-cudnn-cu12 9.1.0.70", "an unrecorded package".
std::string owner_text(const Bundle& b) {
  if (!b.owner) return "an unrecorded package";
  return b.owner->version.empty() ? b.owner->name : b.owner->name + " " + b.owner->version;
}

std::string cudnn_text(const Bundle& b) {
  if (!b.version.empty()) return "cuDNN " + b.version;
  return b.cudnn_major ? fmt::format("cuDNN {}", b.cudnn_major) : std::string("cuDNN of unknown version");
}

unsigned toolkit_cuda_major(const Toolkit& t) { return t.cuda_major().value_or(0); }

std::string toolkit_cudnn_text(const DoctorFacts& f) {
  if (f.header) return "cuDNN " + f.header->text();
  return f.major ? fmt::format("cuDNN {}", *f.major) : std::string("cuDNN");
}

// A bundle whose copy a framework loads (not set aside by cudnnctl, and holding cuDNN).
bool loads_own_copy(const Bundle& b) { return b.state != BundleState::unbundled && !b.files.empty(); }

// How the package that owns the bundle is put back to its own files.
std::string reinstall_text(const Bundle& b) {
  if (!b.owner) return "reinstall the package that put it there";
  const bool conda = b.owner->metadata.ends_with(".json");
  if (conda) return fmt::format("reinstall it: `conda install --force-reinstall {}`", shell_word(b.owner->name));
  const auto spec = b.owner->version.empty() ? b.owner->name : b.owner->name + "==" + b.owner->version;
  return fmt::format("reinstall it: `pip install --force-reinstall --no-deps {}`", shell_word(spec));
}

void check_bundles_found(const DoctorFacts& f, Checks& out) {
  const auto& g = f.bundles();
  if (!f.tk() || !g.gathered) return;
  std::string where = g.looked_in.empty() ? std::string("no site folder to search (no --site, $VIRTUAL_ENV or $CONDA_PREFIX, and no Python reported one)")
                                          : fmt::format("searched {}", fmt::join(g.looked_in, ", "));
  if (!g.not_asked.empty()) where += fmt::format("; could not ask {}", fmt::join(g.not_asked, ", "));
  std::vector<std::string> lines;
  for (const auto& b : g.bundles) {
    if (b.state == BundleState::unbundled)
      lines.push_back(fmt::format("'{}' ({}): set aside by cudnnctl, so {} loads the next cuDNN on its search path (the toolkit's)", b.dir,
                                  owner_text(b), b.owner ? b.owner->name : "its framework"));
    else
      lines.push_back(fmt::format("'{}' ({}, {}, {}): programs of {} load this copy first", b.dir, owner_text(b), cudnn_text(b),
                                  to_string(b.state), b.owner ? b.owner->name : "the framework"));
  }
  if (!g.problems.empty()) {
    auto c = make_check("bundles.found", kLayer, CheckStatus::warn,
                        fmt::format("{} bundled cuDNN folder(s) could not be read: {}{}", g.problems.size(), fmt::join(g.problems, "; "),
                                    lines.empty() ? "" : fmt::format("; read: {}", fmt::join(lines, "; "))));
    c.cause = "a folder holding cuDNN below the Python environments, or cudnnctl's own state for one, could not be read";
    c.fix = "see `cudnnctl bundle list` for the same folders and what is wrong with each";
    out.push_back(std::move(c));
    return;
  }
  if (lines.empty()) {
    out.push_back(make_check("bundles.found", kLayer, CheckStatus::pass, fmt::format("no framework-bundled cuDNN found ({})", where)));
    return;
  }
  out.push_back(make_check("bundles.found", kLayer, CheckStatus::pass,
                           fmt::format("{} framework-bundled cuDNN folder(s) ({}): {}", lines.size(), where, fmt::join(lines, "; "))));
}

void check_bundles_shadow(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t || !f.major || !f.bundles().gathered) return;
  for (const auto& b : f.bundles().bundles) {
    if (!loads_own_copy(b) || b.cudnn_major != *f.major) continue;
    const auto who = b.owner ? b.owner->name : std::string("the framework");
    auto c = make_check("bundles.shadow", kLayer, CheckStatus::warn,
                        fmt::format("'{}' ({}) holds {}: {}'s programs load it first, and the toolkit's {} in {} is never used by them", b.dir,
                                    owner_text(b), cudnn_text(b), who, toolkit_cudnn_text(f), f.runtime_dir));
    c.cause = "a framework finds the cuDNN it ships by its own library's RPATH or beside it, before LD_LIBRARY_PATH, PATH and the toolkit, "
              "so installing or upgrading the toolkit's cuDNN does not change what the framework runs";
    const auto dir = command_word(b.dir);
    const auto swap = fmt::format("`cudnnctl bundle swap {} ARCHIVE` puts a newer cuDNN {} archive's libraries in its place (originals kept)", dir,
                                  b.cudnn_major);
    // unbundle is refused unless the framework's CUDA major is known and the toolkit's (bundle_ops)
    const auto tk_cuda = toolkit_cuda_major(*t);
    if (b.cuda_major != 0 && b.cuda_major == tk_cuda)
      c.fix = fmt::format("`cudnnctl bundle unbundle {} --cuda-path {}` sets the copy aside so the toolkit's loads, or {}", dir,
                          command_word(t->root), swap);
    else if (b.cuda_major != 0)
      c.fix = fmt::format("{}; `cudnnctl bundle unbundle` is refused here: the framework is built for CUDA {} and the toolkit is CUDA {}", swap,
                          b.cuda_major, tk_cuda);
    else
      c.fix = fmt::format("{}; `cudnnctl bundle unbundle` is refused here: the CUDA major the framework is built for is unknown "
                          "(no -cuNN wheel name, no cudart beside it)",
                          swap);
    out.push_back(std::move(c));
  }
}

void check_bundles_state(const DoctorFacts& f, Checks& out) {
  if (!f.tk() || !f.bundles().gathered) return;
  for (const auto& b : f.bundles().bundles) {
    const auto dir = command_word(b.dir);
    const auto note = b.state_note.empty() ? std::string() : " (" + b.state_note + ")";
    switch (b.state) {
      case BundleState::modified: {
        auto c = make_check("bundles.state", kLayer, CheckStatus::warn,
                            fmt::format("'{}' ({}) is modified{}: its cuDNN files are not the package's and not what cudnnctl left", b.dir,
                                        owner_text(b), note));
        c.cause = "the files were edited or copied over by hand (not by cudnnctl): the package's RECORD no longer describes what loads, "
                  "and pip's and cudnnctl's checks cannot tell which cuDNN this is";
        const bool swapped_before = b.state_note.find("cudnnctl") != std::string::npos;
        c.fix = swapped_before ? fmt::format("{}, then `cudnnctl bundle restore {}` forgets cudnnctl's earlier change", reinstall_text(b), dir)
                               : reinstall_text(b);
        out.push_back(std::move(c));
        break;
      }
      case BundleState::reverted: {
        auto c = make_check("bundles.state", kLayer, CheckStatus::warn,
                            fmt::format("'{}' ({}) is reverted{}: the package's own cuDNN is back and cudnnctl's record of its change is stale",
                                        b.dir, owner_text(b), note));
        c.cause = "the package manager reinstalled or upgraded the package after cudnnctl swapped or set aside its cuDNN, and put its own files back";
        c.fix = fmt::format("`cudnnctl bundle restore {}` forgets the change (touching no file); swap again if you still want another cuDNN", dir);
        out.push_back(std::move(c));
        break;
      }
      case BundleState::unrecorded:
        out.push_back(make_check("bundles.state", kLayer, CheckStatus::skip,
                                 fmt::format("'{}': no RECORD or conda-meta lists its files, so there is nothing to compare them with", b.dir)));
        break;
      case BundleState::original:
      case BundleState::swapped:
      case BundleState::unbundled:
        out.push_back(make_check("bundles.state", kLayer, CheckStatus::pass,
                                 fmt::format("'{}' ({}) is {}{}", b.dir, owner_text(b), to_string(b.state),
                                             b.state == BundleState::original ? " (its files match the package's RECORD)" : note)));
        break;
    }
  }
}

void check_bundles_versions(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t || !f.major || !f.bundles().gathered) return;
  const auto tk_cuda = toolkit_cuda_major(*t);
  for (const auto& b : f.bundles().bundles) {
    if (!loads_own_copy(b)) continue;
    const auto who = b.owner ? b.owner->name : std::string("the framework");
    std::vector<std::string> differs;
    if (b.cudnn_major != 0 && b.cudnn_major != *f.major)
      differs.push_back(fmt::format("it holds cuDNN major {} ({}) and the toolkit cuDNN major {} ({})", b.cudnn_major, cudnn_text(b), *f.major,
                                    toolkit_cudnn_text(f)));
    if (b.cuda_major != 0 && tk_cuda != 0 && b.cuda_major != tk_cuda)
      differs.push_back(fmt::format("{} is built for CUDA {} and the toolkit is CUDA {} ({})", who, b.cuda_major, tk_cuda, t->version));
    if (differs.empty()) {
      out.push_back(make_check("bundles.versions", kLayer, CheckStatus::pass,
                               fmt::format("'{}' ({}): cuDNN major {} and CUDA {} as the toolkit's", b.dir, owner_text(b), b.cudnn_major,
                                           b.cuda_major ? std::to_string(b.cuda_major) : std::string("(unknown)"))));
      continue;
    }
    auto c = make_check("bundles.versions", kLayer, CheckStatus::warn, fmt::format("'{}' ({}): {}", b.dir, owner_text(b), fmt::join(differs, "; ")));
    c.cause = fmt::format("{}'s programs run the bundle's cuDNN and CUDA libraries, while what is built against the toolkit uses the toolkit's: "
                          "one machine, two stacks, and `cudnnctl bundle swap` and `unbundle` refuse another major",
                          who);
    c.fix = fmt::format("install the build of {} for the toolkit's CUDA {} (for PyTorch, the cu{}x wheel index), or use a toolkit of CUDA {} with cuDNN {}",
                        who, tk_cuda, tk_cuda, b.cuda_major ? std::to_string(b.cuda_major) : std::string("?"),
                        b.cudnn_major ? std::to_string(b.cudnn_major) : std::string("?"));
    out.push_back(std::move(c));
  }
}

} // namespace

const std::vector<CheckSpec>& bundles_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"bundles.found", 2, need_bundles, &check_bundles_found,
       "the framework-bundled cuDNN folders (PyTorch's torch/lib, pip's nvidia-cudnn wheels, conda's packages), which their programs load first: "
       "found as `cudnnctl bundle list` finds them (--site, else $VIRTUAL_ENV, $CONDA_PREFIX and the site-packages python3 and python report) and, "
       "without --site, in this machine's other Python environments too (~/.local, conda envs under $HOME, /usr/local, /usr; on Windows PEP 514's "
       "registry entries, %LOCALAPPDATA%\\Programs\\Python, conda's default folders); with owner, version and state, and which copy each framework "
       "loads; where it looked when there are none (it took over files.frameworks)",
       ""},
      {"bundles.shadow", 2, need_bundles, &check_bundles_shadow,
       "a bundle of the toolkit's cuDNN major that its framework loads first, so the toolkit's copy is never used by it (fix: `cudnnctl bundle "
       "unbundle` or `bundle swap` of that folder)",
       ""},
      {"bundles.state", 2, need_bundles, &check_bundles_state,
       "each bundle's state: modified (its files edited by hand, not by cudnnctl) and reverted (the package manager put its files back after a "
       "cudnnctl swap or unbundle) warn",
       ""},
      {"bundles.versions", 2, need_bundles, &check_bundles_versions, "a bundle of another cuDNN major or CUDA major than the toolkit's, naming both",
       ""},
  };
  return rows;
}

} // namespace cudnnctl
