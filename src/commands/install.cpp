// cudnnctl install <archive>: verified, transactional install into a CUDA toolkit, with a receipt.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/commands/archive_options.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/machine/install_gate.hpp"
#include "cudnnctl/install/install_download.hpp"
#include "cudnnctl/env/toolkit_json.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/fetch/release_choice.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/catalog/advisories.hpp"
#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {
struct InstallCommandOptions {
  ArchiveOptions archive;
  std::string cuda_path;
  std::string name_encoding;
  bool dry_run = false;
  bool force = false;
  bool no_path = false;
  bool offline = false;
  std::string mirror;
  int connections = 0;  // --connections: range requests at once when a version is downloaded (0: adaptive)
  std::string cache;
  std::string driver_library;
  std::shared_ptr<Machine> machine;  // this machine: its GPUs asked once, by the resolver or by the GPU gate
  std::optional<ReleaseChoice> choice;  // `install latest|9|9.19`: what the resolver chose
  std::optional<Toolkit> toolkit;       // picked once: for a release request before the resolver runs
  std::string toolkit_reason;
  std::optional<FetchRequest> download;  // install VERSION: the archive to fetch while it inflates (install_download)
};

nlohmann::json plan_json(const InstallPlan& plan) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : plan.steps)
    steps.push_back({{"kind", std::string(to_string(s.kind))},
                     {"source", s.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.source)},
                     {"target", s.target},
                     {"link_target", s.link_target.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.link_target)},
                     {"replaces", s.replaces}});
  return steps;
}

std::string loader_advice(const Toolkit& t, const PathReport& r) {
  std::string out;
  if (r.shadows)
    for (const auto& e : r.shadows->explanations) out += "  !        " + e + "\n";
  const bool wins = r.shadows && std::any_of(r.shadows->copies.begin(), r.shadows->copies.end(),
                                             [](const CudnnCopy& c) { return c.wins && c.installed; });
  // every command printed here runs as it is: it names this toolkit (sudo does not keep CUDA_PATH, and a
  // default toolkit may be another one)
  if (wins)
    return out + fmt::format("  loader   programs load this cuDNN from {} ({} shows the search order)\n", r.plan.folder,
                             toolkit_command(t.root, "path"));
  if (t.os == Os::windows)
    return out + fmt::format("  next     put {} first on PATH: {} (or --scope machine, elevated)\n", r.plan.folder, r.plan.apply_command);
  return out + fmt::format("  next     put {} on the loader path: {}, or for this shell: {}\n", r.plan.folder, r.plan.apply_command,
                           r.plan.eval_command);
}
} // namespace

namespace {
// `install latest`, `install 9.19`: a release request instead of a file. The resolver chooses the archive for this
// toolkit, driver and GPUs (catalog/release_resolver), which is then fetched; --dry-run stops at the choice.
Result<void> fetch_when_a_version(InstallCommandOptions& opts, CatalogSource& catalogs, Io& io) {
  if (!names_a_release(opts.archive.archive)) return {};
  CUDNNCTL_TRY_ASSIGN(opts.toolkit, opts.machine->select_toolkit(opts.cuda_path, std::nullopt, opts.toolkit_reason));
  const auto& tk = *opts.toolkit;
  FetchRequest fr;
  fr.version = opts.archive.archive;
  fr.platform = host_platform_name(tk.os);
  fr.cuda = tk.major();
  fr.mirror = opts.mirror;
  fr.connections = opts.connections;
  fr.cache_dir = opts.cache;
  fr.offline = opts.offline;
  const auto facts = opts.machine->facts(fr.platform, &tk, tk.os == platform::detect_host().os);
  CUDNNCTL_TRY_ASSIGN(opts.choice, choose_release_for(fr, facts, catalogs, io, opts.force));
  if (opts.dry_run) return {};
  for (const auto& w : passed_over_warnings(*opts.choice)) io.warn(w);
  // fetched by the installer, into its staging folder as the bytes arrive; named here by where the cache keeps it
  // (`fr` names the chosen archive: nothing resolves it again)
  CUDNNCTL_TRY_ASSIGN(const Catalog* catalog, catalogs.get());
  if (fr.cache_dir.empty()) fr.cache_dir = default_cache_dir();
  CUDNNCTL_TRY_ASSIGN(opts.archive.archive, fetch_cache_path(*catalog, fr));
  opts.download = fr;
  return {};
}

// install VERSION: the installer's extraction step fetches the archive and inflates it as it arrives.
void fetch_while_installing(const InstallCommandOptions& opts, const PreparedArchive& p, CatalogSource& catalogs, Io& io, InstallRequest& req) {
  if (!opts.download) return;
  auto fetch = [&catalogs, &io](FetchRequest r) { return fetch_for(std::move(r), catalogs, io); };
  auto fetched = [&io](const FetchOutcome& f) { io.warn(fmt::format("fetched {} ({})", f.path, f.downloaded ? "downloaded" : "from the cache")); };
  req.extract = extract_while_downloading(*opts.download, fetch, p.format, p.expected, fetched);
}

// install VERSION --dry-run: the choice, nothing downloaded or placed.
ExitCode render_choice_only(const ReleaseChoice& choice, Io& io) {
  if (io.json) {
    io.set_body(nlohmann::json{{"changed", false}, {"dry_run", true}, {"resolution", release_choice_json(choice)}});
    return ExitCode::ok;
  }
  render_release_choice(choice, io.out);
  io.out << "  dry run  nothing downloaded or installed (without --dry-run: fetched, verified against the catalog, installed)\n";
  return ExitCode::ok;
}

// Known-bad releases warn. An archive for this OS: its staged libraries pass the machine's gate (glibc floor,
// driver, GPU code: machine/install_gate.hpp) before anything is placed.
void host_gate(const PreparedArchive& p, const InstallCommandOptions& opts, Io& io, InstallRequest& req) {
  for (const auto& a : advisories_for(p.name->version, builtin_advisories())) io.warn(advisory_warning(p.name->version, a));
  const auto host = platform::detect_host().os;
  if (p.name->os != host) return;
  req.check_staged_libraries = staged_library_gate(*p.name, p.path, opts.force, opts.machine, [&io](const std::string& w) { io.warn(w); });
}

InstallRequest install_request(const PreparedArchive& p, const Toolkit& toolkit, const Catalog& catalog, const InstallCommandOptions& opts) {
  InstallRequest req;
  req.archive_path = p.path;
  req.name = *p.name;
  req.expected = p.expected;
  req.allow_unverified = opts.archive.allow_unverified;
  req.toolkit = toolkit;
  for (const auto* row : catalog.support_for(p.name->version.release_label(), p.name->cuda_variant)) req.support.push_back(*row);
  req.force = opts.force;
  req.dry_run = opts.dry_run;
  req.name_encoding = opts.name_encoding;
  req.catalog_size = p.catalog_size;
  return req;
}

// The PATH/loader step: shown (and, on GitHub Actions, written for later steps) unless --no-path.
struct PathStep {
  std::optional<PathReport> report;
  std::vector<std::string> github;
};
Result<PathStep> path_step(const Toolkit& toolkit, Io& io) {
  platform::ProcessEnvironment env;
  PathStep step;
  step.report = make_path_report(toolkit, env, "/", "");
  if (const auto note = list_problem_note(step.report->plan); !note.empty()) io.warn(note);
  CUDNNCTL_TRY_ASSIGN(step.github, apply_github_update(env, step.report->plan.github));
  return step;
}

void render_install(const InstallOutcome& o, const Toolkit& toolkit, const std::string& reason, const PathStep& path,
                    const std::optional<ReleaseChoice>& choice, Io& io) {
  const auto receipt_file = native_utf8(path_from_utf8(receipt_path(state_dir_of(toolkit))));
  if (io.json) {
    nlohmann::json j{{"changed", o.changed},
                     {"dry_run", o.dry_run},
                     {"summary", o.summary},
                     {"toolkit", toolkit_json(toolkit, reason)},
                     {"plan", plan_json(o.plan)},
                     {"receipt", o.receipt ? nlohmann::json::parse(receipt_to_json(*o.receipt)) : nlohmann::json(nullptr)},
                     {"receipt_path", o.dry_run ? nlohmann::json(nullptr) : nlohmann::json(receipt_file)},
                     {"recovered", o.recovered.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.recovered)},
                     {"path", path.report ? path_report_json(*path.report) : nlohmann::json(nullptr)},
                     {"github", path.github},
                     {"resolution", choice ? release_choice_json(*choice) : nlohmann::json(nullptr)}};
    io.set_body(j);
    return;
  }
  io.out << o.summary << "\n";
  io.out << fmt::format("  toolkit  {}\n", reason);
  if (o.dry_run) {
    for (const auto& s : o.plan.steps)
      io.out << fmt::format("  {:<12} {}{}{}\n", to_string(s.kind), s.source.empty() ? "" : s.source + " -> ", s.target,
                            s.replaces ? " (replaces; original kept)" : "");
  } else if (o.receipt) {
    io.out << fmt::format("  sha256   {} ({})\n  receipt  {}\n", o.receipt->sha256, o.receipt->verified_by, receipt_file);
  }
  if (path.report) io.out << loader_advice(toolkit, *path.report);
  for (const auto& g : path.github) io.out << "  github   " << g << "\n";
}
} // namespace

CommandRun setup_install(CLI::App& sub, Io&) {
  auto opts = std::make_shared<InstallCommandOptions>();
  add_archive_options(sub, opts->archive);
  sub.get_option("archive")->description("The archive file, or a release to choose for this machine and fetch: latest, 9, 9.19, 9.19.0.56");
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit to install into (default: found from CUDA_PATH, CUDA_HOME, nvcc, ...)");
  add_name_encoding_option(sub, opts->name_encoding);
  sub.add_flag("--dry-run", opts->dry_run, "Print the plan; write nothing (a release: the archive chosen and why newer ones were passed over)");
  sub.add_flag("--force", opts->force, "Install although the archive's OS, CUDA variant or range does not fit the toolkit, its libraries need a newer glibc / libstdc++ than this host has, or they carry no code for a GPU of this machine");
  sub.add_flag("--no-path", opts->no_path, "Do not print the loader-path advice at the end");
  sub.add_option("--mirror", opts->mirror, "With a version: download from this mirror instead of NVIDIA");
  sub.add_option("--connections", opts->connections, "With a version: HTTP range requests at once (default: adaptive, up to 8)")
      ->check(CLI::Range(1, 32));
  sub.add_flag("--offline", opts->offline, "With a version: never touch the network (the cache's verified copy, or an error)");
  sub.add_option("--driver-library", opts->driver_library, "The NVIDIA driver library asked for the GPUs (default: libcuda.so.1, nvcuda.dll by name)");
  sub.add_option("--cache", opts->cache, "With a version: the download cache (default: ~/.cache/cudnnctl/archives; Windows: %LOCALAPPDATA%\\cudnnctl\\archives)");
  return [opts](Io& io) -> Result<ExitCode> {
    opts->machine = std::make_shared<Machine>(opts->driver_library);
    CatalogSource catalogs(opts->archive.catalog);  // read once, whichever step needs it first
    CUDNNCTL_TRY(fetch_when_a_version(*opts, catalogs, io));
    if (opts->choice && opts->dry_run) return render_choice_only(*opts->choice, io);
    CUDNNCTL_TRY_ASSIGN(const auto p, prepare_archive(opts->archive, io, catalogs));
    if (!p.name)
      return fail(ErrorCode::name_malformed, fmt::format("'{}' is not named like an NVIDIA cuDNN archive", p.path),
                  "install needs NVIDIA's archive name: it says which version, platform and layout to expect", p.path);
    // a release request picked the toolkit the archive was chosen for; an archive file picks one of its CUDA major
    if (!opts->toolkit) {
      CUDNNCTL_TRY_ASSIGN(opts->toolkit, opts->machine->select_toolkit(opts->cuda_path, p.name->cuda_major(), opts->toolkit_reason));
    }
    const auto& toolkit = *opts->toolkit;
    const auto& reason = opts->toolkit_reason;
    CUDNNCTL_TRY_ASSIGN(const Catalog* catalog, catalogs.get());
    auto req = install_request(p, toolkit, *catalog, *opts);
    host_gate(p, *opts, io, req);
    fetch_while_installing(*opts, p, catalogs, io, req);
    auto fs = make_real_fs();
    // the progress line ends (and is cleared) before anything else is printed; a download draws its own
    auto outcome = [&] {
      ProgressLine progress(io, "installing");
      if (!req.extract) req.on_total = progress.total_setter();
      if (!req.extract) req.on_bytes = progress.adder();
      auto r = install_archive(req, *fs);
      if (r && !r->dry_run && r->changed && !req.extract) progress.finish();
      return r;
    }();
    CUDNNCTL_TRY(outcome);
    if (!outcome->recovered.empty()) io.warn(outcome->recovered);
    PathStep path;
    if (!opts->no_path && !outcome->dry_run) {
      CUDNNCTL_TRY_ASSIGN(path, path_step(toolkit, io));
    }
    for (const auto& w : outcome->warnings) io.warn(w);
    render_install(*outcome, toolkit, reason, path, opts->choice, io);
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
