// `cudnnctl bundle list|swap|unbundle|restore`: framework-bundled cuDNN (docs/bundles.md), and the
// hidden `__bundle_load DIR` child that proves a copy loads.
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_ops.hpp"
#include "cudnnctl/bundle/bundle_probe.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/python_sites.hpp"
#include "cudnnctl/commands/archive_options.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

namespace {

struct BundleArgs {
  std::vector<std::string> pythons, sites;
  std::string dir, cuda_path;
  ArchiveOptions archive;
  std::string mirror, cache;  // swap of a version: where from, where the verified archive is kept
  int connections = 0;
  bool offline = false;
  std::string name_encoding;
  bool allow_downgrade = false;
  bool no_load_check = false;
};

nlohmann::json bundle_json(const Bundle& b) {
  return {{"dir", b.dir},
          {"owner", b.owner ? nlohmann::json(b.owner->name) : nlohmann::json(nullptr)},
          {"version", b.version.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.version)},
          {"cuda_major", b.cuda_major ? nlohmann::json(b.cuda_major) : nlohmann::json(nullptr)},
          {"arch", b.arch.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.arch)},
          {"files", b.files},
          {"state", std::string(to_string(b.state))},
          {"state_note", b.state_note}};
}

// The folders to search: --site and what each --python reports; with neither, $VIRTUAL_ENV's and
// $CONDA_PREFIX's and what python3 and python on PATH report.
std::vector<std::string> sites_to_scan(const BundleArgs& a, Io& io) {
  std::vector<std::string> sites = a.sites;
  auto pythons = a.pythons;
  const platform::ProcessEnvironment env;
  if (a.sites.empty() && a.pythons.empty()) {
    pythons = {"python3", "python"};
    sites = env_bundle_sites(env);
  }
  // each distinct interpreter asked once, all at once, and none whose folders its layout names
  auto disk = make_real_python_disk();
  std::vector<std::string> exes;
  for (const auto& py : pythons) {
    if (auto exe = find_on_path(py, env, platform::path_list_separator() == ';', *disk); !exe.empty()) exes.push_back(std::move(exe));
    else io.warn(fmt::format("could not ask {} for its site-packages: not on PATH", py));
  }
  std::error_code ec;
  const auto found = collect_python_sites(plan_python_sites(exes, env, utf8_of(std::filesystem::current_path(ec)), *disk), python_site_dirs);
  for (const auto& [exe, why] : found.not_asked) io.warn(fmt::format("could not ask {} for its site-packages: {}", exe, why));
  sites.insert(sites.end(), found.sites.begin(), found.sites.end());
  return sites;
}

Result<ExitCode> run_list(const BundleArgs& a, Io& io) {
  const platform::ProcessEnvironment env;
  auto fs = make_real_fs();
  BundleContext ctx{bundle_state_root(env), fs.get()};
  CUDNNCTL_TRY_ASSIGN(const auto held, hold_bundle_state(ctx));
  CUDNNCTL_TRY_ASSIGN(auto recovered, recover_bundles(ctx));
  for (const auto& r : recovered) io.warn(r);
  auto scan = scan_bundles(ctx, sites_to_scan(a, io));
  for (const auto& p : scan.problems) io.warn(p);
  nlohmann::json arr = nlohmann::json::array();
  std::ostringstream text;
  OwnerLookup owners(package_root());
  for (const auto& v : scan.views) {
    const auto& b = v.bundle;
    auto row = bundle_json(b);
    row["load_check_skipped"] = v.receipt ? nlohmann::json(v.receipt->load_check_skipped) : nlohmann::json(nullptr);
    const auto main = main_library(b.files, b.os);  // the package manager's view of the copy (docs/owners.md)
    const Owner owner = main.empty() ? Owner{} : owners.owner_of(b.dir + "/" + main);
    row["package_owner"] = owner_json(owner);
    arr.push_back(std::move(row));
    text << fmt::format("{}\n  owner {}, cuDNN {}, CUDA {}, {}, {} files, {}{}\n", terminal_safe(b.dir), b.owner ? b.owner->name : "unknown",
                        b.version.empty() ? "?" : b.version, b.cuda_major ? std::to_string(b.cuda_major) : "?", b.arch.empty() ? "?" : b.arch,
                        b.files.size(), to_string(b.state), b.state_note.empty() ? "" : " (" + terminal_safe(b.state_note) + ")");
    text << fmt::format("  {}\n", terminal_safe(describe(owner)));
    if (v.receipt && v.receipt->load_check_skipped)
      text << fmt::format("  cudnnctl's {} was not load-checked: {}\n", v.receipt->action, terminal_safe(v.receipt->load_check_note));
    if (b.state == BundleState::unbundled)
      text << "  the framework finds no cuDNN here and loads the next one on its search path (the toolkit's)\n";
    else
      text << "  the framework loads this copy first; a toolkit's cuDNN is not used by it\n";
  }
  if (io.json) {
    io.set_body(nlohmann::json{{"bundles", arr}});
  } else {
    io.out << (scan.views.empty() ? std::string("no framework-bundled cuDNN found\n") : text.str());
  }
  return ExitCode::ok;
}

Result<ExitCode> report(Io& io, const BundleOutcome& o, const char* verb) {
  if (io.json) {
    io.set_body(nlohmann::json{{"action", verb},
                                       {"before", bundle_json(o.before.bundle)},
                                       {"bundle", bundle_json(o.after.bundle)},
                                       {"added", o.added},
                                       {"removed", o.removed},
                                       {"loaded_version", o.loaded_version ? nlohmann::json(o.loaded_version) : nlohmann::json(nullptr)},
                                       {"load_check", o.load_check_skipped ? "skipped" : "passed"},
                                       {"load_check_note", o.load_check_note},
                                       {"message", o.message}});
  } else {
    io.out << terminal_safe(o.message) << "\n";
  }
  return ExitCode::ok;
}

// --no-load-check, and what would run the check where this OS cannot (the command again, on the libraries' OS).
LoadCheckRequest load_check_request(const BundleArgs& a, const std::vector<std::string>& args) {
  return LoadCheckRequest{a.no_load_check, args, find_windows_interop(platform::ProcessEnvironment{}, platform::self_executable())};
}

// The swap command's own arguments again, for the hint that names how to rerun it elsewhere.
std::vector<std::string> swap_rerun_args(const BundleArgs& a, const std::string& archive) {
  std::vector<std::string> args{"bundle", "swap", a.dir, archive};
  const auto& o = a.archive;
  if (!o.hashes.sha256.empty()) args.insert(args.end(), {"--sha256", o.hashes.sha256});
  if (!o.hashes.sha256_file.empty()) args.insert(args.end(), {"--sha256-file", o.hashes.sha256_file});
  if (!o.catalog.empty()) args.insert(args.end(), {"--catalog", o.catalog});
  if (o.allow_unverified) args.push_back("--allow-unverified");
  if (!a.name_encoding.empty()) args.insert(args.end(), {"--name-encoding", a.name_encoding});
  if (a.allow_downgrade) args.push_back("--allow-downgrade");
  return args;
}

// `bundle swap DIR 9.20`: a release instead of a file. The archive is the release's build for the bundle's OS (on
// this machine's architecture) and for the CUDA major its framework was built for (the newest variant when that
// is unknown), fetched into the cache as `fetch` does it (ranges at once, resumable, hashed as it arrives,
// kept only when the catalog's SHA-256 matches), then swapped in from there like a file.
Result<void> fetch_swap_release(BundleArgs& a, CatalogSource& catalogs, Io& io) {
  if (!names_a_release(a.archive.archive)) return {};
  CUDNNCTL_TRY_ASSIGN(const auto bundle, describe_bundle(a.dir));  // its OS and CUDA major: no library read
  FetchRequest fr;
  fr.version = a.archive.archive;
  fr.platform = host_platform_name(bundle.os);
  if (bundle.cuda_major) fr.cuda = std::to_string(bundle.cuda_major);
  fr.mirror = a.mirror;
  fr.connections = a.connections;
  fr.cache_dir = a.cache;
  fr.offline = a.offline;
  CUDNNCTL_TRY_ASSIGN(const auto got, fetch_for(fr, catalogs, io));
  io.warn(fmt::format("fetched {} ({})", got.path, got.downloaded ? "downloaded" : "from the cache"));
  a.archive.archive = got.path;
  return {};
}

Result<BundleOutcome> run_swap(const BundleContext& ctx, BundleArgs a, Io& io) {
  CatalogSource catalogs(a.archive.catalog);
  CUDNNCTL_TRY(fetch_swap_release(a, catalogs, io));
  CUDNNCTL_TRY_ASSIGN(auto prepared, prepare_archive(a.archive, io, catalogs));
  if (!prepared.name)
    return fail(ErrorCode::name_malformed, fmt::format("{} is not named like NVIDIA's cuDNN archives", prepared.path),
                "bundle swap reads the version, platform and CUDA major from the name; keep NVIDIA's file name", prepared.path);
  SwapRequest req;
  req.dir = a.dir;
  req.archive_path = prepared.path;
  req.name = *prepared.name;
  req.expected = prepared.expected;
  req.allow_downgrade = a.allow_downgrade;
  req.load_check = load_check_request(a, swap_rerun_args(a, prepared.path));
  req.allow_unverified = a.archive.allow_unverified;
  req.name_encoding = a.name_encoding;
  ProgressLine progress(io, "swapping");
  req.progress = {progress.total_setter(), progress.adder()};
  CUDNNCTL_TRY_ASSIGN(auto out, swap_bundle(ctx, req));
  progress.finish();
  if (prepared.expected.empty()) io.warn(fmt::format("'{}' is UNVERIFIED: no expected hash is known (--allow-unverified)", prepared.path));
  return out;
}

Result<BundleOutcome> run_unbundle(const BundleContext& ctx, const BundleArgs& a) {
  std::string reason;
  CUDNNCTL_TRY_ASSIGN(auto tk, Machine().select_toolkit(a.cuda_path, std::nullopt, reason));
  std::vector<std::string> args{"bundle", "unbundle", a.dir};
  if (!a.cuda_path.empty()) args.insert(args.end(), {"--cuda-path", a.cuda_path});
  return unbundle_bundle(ctx, a.dir, tk.runtime_library_dir(), tk.cuda_major().value_or(0), load_check_request(a, args));
}

Result<BundleOutcome> run_restore(const BundleContext& ctx, const BundleArgs& a, Io& io) {
  ProgressLine progress(io, "restoring");
  bool hashed = false;  // a restore after the package manager put the files back moves nothing: no final line
  auto set_total = progress.total_setter();
  const BundleProgress counting{[&](std::uint64_t n) {
                                  hashed = true;
                                  if (set_total) set_total(n);
                                },
                                progress.adder()};
  CUDNNCTL_TRY_ASSIGN(auto out, restore_bundle(ctx, a.dir, counting));
  if (hashed) progress.finish();
  return out;
}

// The verbs that change a bundle: each runs under the bundle state's lock and reports the same way.
enum class BundleChange { swap, unbundle, restore };

const char* verb_name(BundleChange c) {
  switch (c) {
  case BundleChange::swap: return "swap";
  case BundleChange::unbundle: return "unbundle";
  case BundleChange::restore: return "restore";
  }
  return "restore";
}

Result<BundleOutcome> run_verb(BundleChange c, const BundleContext& ctx, const BundleArgs& a, Io& io) {
  switch (c) {
  case BundleChange::swap: return run_swap(ctx, a, io);
  case BundleChange::unbundle: return run_unbundle(ctx, a);
  case BundleChange::restore: return run_restore(ctx, a, io);
  }
  return run_restore(ctx, a, io);
}

Result<ExitCode> run_change(const BundleArgs& a, Io& io, BundleChange change) {
  const platform::ProcessEnvironment env;
  auto fs = make_real_fs();
  BundleContext ctx{bundle_state_root(env), fs.get()};
  CUDNNCTL_TRY_ASSIGN(const auto held, hold_bundle_state(ctx));
  CUDNNCTL_TRY_ASSIGN(const auto outcome, run_verb(change, ctx, a, io));
  return report(io, outcome, verb_name(change));
}

} // namespace

CommandRun setup_bundle(CLI::App& sub, Io&) {
  auto a = std::make_shared<BundleArgs>();
  sub.require_subcommand(1);
  auto* list = sub.add_subcommand("list", "Every folder of cuDNN libraries a framework or environment bundles, with its owner and state");
  list->add_option("--python", a->pythons, "An interpreter whose site-packages to search (repeatable)");
  list->add_option("--site", a->sites, "A site-packages or environment folder to search (repeatable)");
  auto* swap = sub.add_subcommand("swap", "Replace a bundle's cuDNN with an archive's, verified, as one transaction (originals kept)");
  swap->add_option("dir", a->dir, "The bundle's folder")->required();
  add_archive_options(*swap, a->archive);  // the archive (after dir), its hashes, --catalog
  add_name_encoding_option(*swap, a->name_encoding);
  swap->get_option("archive")->description("The archive file, or a release to fetch for the bundle: 9.20, 9.20.0.1 (its OS, the CUDA major of its framework)");
  swap->add_option("--mirror", a->mirror, "With a version: download from this mirror instead of NVIDIA");
  swap->add_option("--connections", a->connections, "With a version: HTTP range requests at once (default: adaptive, up to 8)")
      ->check(CLI::Range(1, 32));
  swap->add_option("--cache", a->cache, "With a version: the download cache (default: ~/.cache/cudnnctl/archives; Windows: %LOCALAPPDATA%\\cudnnctl\\archives)");
  swap->add_flag("--offline", a->offline, "With a version: never touch the network (the cache's verified copy, or an error)");
  swap->add_flag("--allow-downgrade", a->allow_downgrade, "Allow an archive older than the bundle (PyTorch refuses a cuDNN older than its build's)");
  swap->add_flag("--no-load-check", a->no_load_check,
                 "Go ahead without proving the new copy loads (a Windows bundle from Linux cannot be loaded here); recorded in the receipt");
  auto* unbundle = sub.add_subcommand("unbundle", "Set a bundle's cuDNN aside so the toolkit's copy loads (reversible)");
  unbundle->add_option("dir", a->dir, "The bundle's folder")->required();
  unbundle->add_option("--cuda-path", a->cuda_path, "The CUDA toolkit whose cuDNN should load instead");
  unbundle->add_flag("--no-load-check", a->no_load_check,
                     "Go ahead without proving the toolkit's copy loads (a Windows toolkit from Linux cannot be loaded here); recorded in the receipt");
  auto* restore = sub.add_subcommand("restore", "Put a bundle's original files back, byte-identical");
  restore->add_option("dir", a->dir, "The bundle's folder")->required();
  return [a, list, swap, unbundle](Io& io) -> Result<ExitCode> {
    if (list->parsed()) return run_list(*a, io);
    return run_change(*a, io, swap->parsed() ? BundleChange::swap : unbundle->parsed() ? BundleChange::unbundle : BundleChange::restore);
  };
}

CommandRun setup_bundle_load_child(CLI::App& sub, Io&) {
  auto dir = std::make_shared<std::string>();
  sub.add_option("dir", *dir)->required();
  return [dir](Io& io) -> Result<CommandStatus> { return ChildExit{bundle_load_child(*dir, io.out)}; };
}

} // namespace cudnnctl
