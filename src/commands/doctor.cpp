// cudnnctl doctor: layered diagnosis (toolkit -> files -> loader -> driver/device -> workload).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/fleet_files.hpp"
#include "cudnnctl/commands/json_envelope.hpp"
#include "cudnnctl/commands/slurm_health_run.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/fix.hpp"
#include "cudnnctl/machine/probe.hpp"
#include "cudnnctl/env/reg_export.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/env/windows_mount.hpp"
#include "cudnnctl/fetch/fetch.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

Result<void> known_checks(const std::vector<std::string>& ids, std::string_view option) {
  for (const auto& id : ids)
    if (!find_check(id))
      return fail(ErrorCode::usage, fmt::format("{} '{}' is not a check of the doctor", option, id), "cudnnctl doctor --list-checks lists every check id");
  return {};
}

struct FixOptions {
  std::vector<std::string> only;  // --fix ID...
  CLI::Option* fix = nullptr;
  bool yes = false, dry_run = false;
  std::string cache;
  std::string mirror;  // --mirror: a toolkit without cuDNN installs from it
  std::string scope;   // --scope: the Windows registry PATH the loader-path fix writes
};

// doctor --fix: the plan, asked on a terminal (--yes for scripts, --dry-run shows it only), applied, checked again
Result<ExitCode> run_doctor_fix(const DoctorOptions& o, const FixOptions& fo, Io& io) {
  if (!fo.fix->count()) return fail(ErrorCode::usage, "--yes, --dry-run, --mirror and --scope go with --fix", "add --fix, or drop them");
  auto only = fo.only;
  std::erase(only, std::string());  // a bare --fix: every check
  CUDNNCTL_TRY(known_checks(only, "--fix"));
  if (!fo.yes && !fo.dry_run && (io.json || !io.err_is_tty))
    return fail(ErrorCode::usage, "doctor --fix changes files and asks first, but there is no terminal to ask on",
                "add --yes to apply the plan, or --dry-run to see it; nothing was changed");
  DoctorFixRequest req{{fo.cache.empty() ? default_cache_dir() : fo.cache, fo.mirror, fo.scope.empty() ? "user" : fo.scope}, only, fo.dry_run, nullptr};
  if (!fo.yes)
    req.confirm = [&io](const FixPlan& plan) {
      io.out << "plan:\n" << fix_plan_text(plan) << "apply the automatic fixes? [y/N] " << std::flush;
      std::string answer;
      std::getline(std::cin, answer);
      return answer == "y" || answer == "Y" || answer == "yes";
    };
  platform::ProcessEnvironment env;
  const auto outcome = doctor_fix(o, env, req);
  if (io.json) {
    io.schema = document_schema("doctor-fix");
    io.set_body(doctor_fix_json(outcome));
  } else {
    io.out << doctor_fix_text(outcome);
  }
  return doctor_fix_exit_code(outcome);
}

std::shared_ptr<FixOptions> add_fix_options(CLI::App& sub, CLI::Option* list_checks) {
  auto fo = std::make_shared<FixOptions>();
  fo->fix = sub.add_option("--fix", fo->only,
                           "Repair what the diagnosis found: the automatic fixes, planned, asked, each journaled, then checked again "
                           "(ID: only that check's; repeatable)")
                ->expected(0, 1)
                ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)  // --fix A --fix B: both (expected(0, 1) alone keeps one)
                ->excludes(list_checks);
  sub.add_flag("--yes", fo->yes, "With --fix: apply the plan without asking (scripts)");
  sub.add_flag("--dry-run", fo->dry_run, "With --fix: show the plan only, change nothing");
  sub.add_option("--cache", fo->cache, "With --fix: the download cache where a receipt's archive is looked for (default: as install VERSION)");
  sub.add_option("--mirror", fo->mirror,
                 "With --fix: a toolkit without cuDNN gets `install latest --mirror URL` from this mirror (as install VERSION --mirror)");
  sub.add_option("--scope", fo->scope,
                 "With --fix on Windows: the registry PATH the loader-path fix writes, user (default) or machine (elevated), as path --apply --scope")
      ->check(CLI::IsMember({"user", "machine"}));
  return fo;
}

// The report's outputs: --html FILE, then the text or the JSON document, or what --slurm-health (after them) and
// --slurm-reason (instead of them) make of it.
Result<ExitCode> write_doctor_outputs(const DoctorReport& report, const std::string& html, const FleetFiles& fleet,
                                      const SlurmHealthOptions& slurm, Io& io) {
  CUDNNCTL_TRY(write_fleet_files(fleet, report));
  if (!html.empty()) {
    std::ofstream out(path_from_utf8(html), std::ios::binary | std::ios::trunc);
    out << doctor_html(report);
    out.close();
    if (!out) return fail(ErrorCode::io, fmt::format("cannot write the HTML report '{}'", html), "check that its folder exists and is writable", html);
  }
  if (slurm.reason_only) return slurm_reason_only(report, io);
  if (io.json) io.set_body(doctor_json(report));
  else io.out << doctor_text(report);
  if (slurm.health) {
    CUDNNCTL_TRY_ASSIGN(const auto outcome, run_slurm_health(report, slurm.node));
    if (io.json) (*io.body)["slurm"] = slurm_health_json(outcome);
    else io.out << slurm_health_text(outcome);
  }
  return doctor_exit_code(report);
}

} // namespace

CommandRun setup_doctor(CLI::App& sub, Io&) {
  auto opts = std::make_shared<DoctorOptions>();
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit to diagnose (default: found from the environment)");
  sub.add_option("--layer", opts->only_layer, "Show only this layer (1-5)")->check(CLI::Range(1, 5));
  sub.add_option("--check", opts->only_checks, "Run only this check and what it needs (repeatable; ids: --list-checks)")->excludes(sub.get_option("--layer"));
  auto list_checks = std::make_shared<bool>(false);
  auto* list_checks_flag = sub.add_flag("--list-checks", *list_checks, "List every check (id, layer, what it checks, its fix) and exit");
  sub.add_flag("--no-gpu", opts->no_gpu, "Skip the GPU workload (layer 5)");
  auto catalog = std::make_shared<std::string>();
  sub.add_option("--catalog", *catalog, "Release catalog JSON to use instead of the built-in one (minimum drivers, GPUs)");
  auto html = std::make_shared<std::string>();
  sub.add_option("--html", *html, "Also write the report as one self-contained HTML page to FILE");
  sub.add_flag("--offline", opts->offline, "Read files only: load nothing, touch no driver or GPU (implied for a toolkit of another OS)");
  sub.add_option("--target", opts->target, "The platform the toolkit must be for (default: read from the tree)")->check(CLI::IsMember({"windows", "linux"}));
  sub.add_option("--system32", opts->system32, "A Windows toolkit's System32 folder, as seen from here (default: C:\\Windows\\System32 on the mapped drive)");
  auto path_value = std::make_shared<std::string>();
  auto path_value_given = sub.add_option("--path-value", *path_value, "That Windows machine's PATH value (as `echo %PATH%` prints it)");
  auto path_files = std::make_shared<std::vector<std::string>>();
  sub.add_option("--path-file", *path_files, "A registry export (reg export) of the machine or user Environment key, for PATH; repeatable");
  sub.add_option("--drive", opts->drives, "Where a Windows drive is here, e.g. C:=/mnt/c (repeatable; /mnt/<letter> is assumed)");
  sub.add_option("--site", opts->bundle_sites,
                 "A site-packages or environment folder to search for framework-bundled cuDNN (repeatable; default: as `bundle list` searches)");
  auto fleet = add_fleet_file_options(sub);  // --prometheus, --nfd: files for node_exporter and NFD (docs/fleets.md)
  auto slurm = std::make_shared<SlurmHealthOptions>();  // --slurm-health (docs/fleets.md#slurm)
  add_slurm_health_options(sub, *slurm);
  const auto fo = add_fix_options(sub, list_checks_flag);
  // test seams: which file to load as the driver, and where its version is read
  sub.add_option("--driver-library", opts->driver_library, "")->group("");
  sub.add_option("--driver-version-file", opts->driver_version_file, "")->group("");
  sub.add_option("--root", opts->system_root, "System root for the ld.so cache and ld.so.conf.d (tests and image builders)")->group("");
  return [opts, html, catalog, path_value, path_value_given, path_files, list_checks, fleet, slurm, fo](Io& io) -> Result<ExitCode> {
    if (*list_checks) {
      if (io.json) {
        io.schema = document_schema("doctor-checks");
        io.set_body(doctor_checks_json());
      } else {
        io.out << doctor_checks_text();
      }
      return ExitCode::ok;
    }
    CUDNNCTL_TRY(known_checks(opts->only_checks, "--check"));
    opts->self_exe = platform::self_executable();
    Catalog catalog_storage;
    // null for the built-in one: gather_facts parses it after the probe child has started, not before
    CUDNNCTL_TRY_ASSIGN(auto selected, select_catalog_unless_builtin(*catalog, catalog_storage));
    opts->catalog = selected;
    if (!opts->cuda_path.empty()) CUDNNCTL_TRY(read_cuda_path(opts->cuda_path));
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& d : opts->drives)
      if (!WindowsMount::parse_drive_option(d))
        return fail(ErrorCode::usage, fmt::format("--drive '{}' is not of the form C:=/mnt/c", d), "name a drive letter and the folder it is here: --drive C:=/mnt/c");
    if (!opts->system32.empty() && !fs::is_directory(path_from_utf8(opts->system32), ec))
      return fail(ErrorCode::file_not_found, fmt::format("--system32 '{}' is not a folder", opts->system32),
                  "name that Windows machine's System32 as seen from here, e.g. /mnt/c/Windows/System32", opts->system32);
    if (path_value_given->count()) {
      opts->windows_path = *path_value;
      opts->windows_path_origin = "--path-value";
    }
    if (!path_files->empty()) {
      CUDNNCTL_TRY_ASSIGN(auto exported, read_environment_exports(*path_files));
      if (!opts->windows_path) {
        opts->windows_path = exported.path;
        opts->windows_path_origin = fmt::format("{}", fmt::join(*path_files, " + "));
      }
      opts->windows_vars = exported.vars;
    }
    if (fo->fix->count() || fo->yes || fo->dry_run || !fo->mirror.empty() || !fo->scope.empty()) return run_doctor_fix(*opts, *fo, io);
    if (slurm->any() && !slurm->gpu) opts->no_gpu = true;
    platform::ProcessEnvironment env;
    const auto report = run_doctor(*opts, env);
    return write_doctor_outputs(report, *html, *fleet, *slurm, io);
  };
}

CommandRun setup_probe(CLI::App& sub, Io&) {
  auto req = std::make_shared<ProbeRequest>();
  req->driver_library = "libcuda.so.1";
  sub.add_option("--lib-dir", req->lib_dir)->required();
  sub.add_option("--major", req->major)->required();
  sub.add_option("--driver-library", req->driver_library);
  auto no_driver = std::make_shared<bool>(false);
  sub.add_flag("--no-driver", *no_driver);
  sub.add_flag("--driver-only", req->driver_only);
  return [req, no_driver](Io& io) -> Result<CommandStatus> {
    req->with_driver = !*no_driver;
    const int code = run_probe_child(*req, io.out);
    // The report is complete ("done" is out, each line flushed): the process ends here, without running the
    // loaded libraries' exit-time destructors (cuDNN freeing its engine tables: a quarter of this child's
    // CPU time, on the critical path of `doctor`, which waits for the exit). Nothing the probe reports
    // comes from them.
    log::info("__probe ends with exit code {}, the libraries' exit-time destructors not run", code);
    io.out.flush();
    io.err.flush();
    std::fflush(nullptr);  // and whatever a library wrote through C stdio
    std::_Exit(code);
  };
}

} // namespace cudnnctl
