// doctor --fix: each automatic step as the transaction of the command it reuses (install's recovery and repair
// under the toolkit's lock and journal, bundle unbundle under the bundle state's lock and journal), then the
// checks the steps touched run again.
#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_ops.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/load_check_reach.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/doctor/fix.hpp"
#include "cudnnctl/env/path_apply.hpp"
#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

namespace {

Result<std::string> repair_from_archive(const FixStep& step, const Toolkit& t, const DoctorFacts& f, InstallFs& fs) {
  CUDNNCTL_TRY_ASSIGN(auto name, parse_archive_name(step.archive));
  InstallRequest req;
  req.archive_path = step.archive;
  req.name = std::move(name);
  req.expected = {ExpectedHash{f.receipt.sha256, "the receipt of the installed archive", std::nullopt}};
  req.toolkit = t;
  req.support = f.support;
  CUDNNCTL_TRY_ASSIGN(const auto outcome, install_archive(req, fs));
  return outcome.summary;
}

Result<std::string> unbundle_for_toolkit(const FixStep& step, const Toolkit& t, InstallFs& fs, const platform::Environment& env) {
  BundleContext ctx{bundle_state_root(env), &fs};
  CUDNNCTL_TRY_ASSIGN(const auto held, hold_bundle_state(ctx));
  CUDNNCTL_TRY_ASSIGN(const auto recovered, recover_bundles(ctx));  // a run killed mid-unbundle is settled first
  for (const auto& r : recovered) log::info("doctor --fix: {}", r);
  LoadCheckRequest check{false, {"bundle", "unbundle", step.target, "--cuda-path", t.root}, find_windows_interop(env, platform::self_executable())};
  CUDNNCTL_TRY_ASSIGN(const auto outcome, unbundle_bundle(ctx, step.target, t.runtime_library_dir(), t.cuda_major().value_or(0), check));
  return outcome.message;
}

// `install latest --mirror URL` into a toolkit without cuDNN: the install command itself, run as a child of this
// program (its resolver, its download, its journaled transaction); its JSON document says what it did or why not
Result<std::string> install_release(const FixStep& step) {
  std::vector<std::string> argv{platform::self_executable()};
  argv.insert(argv.end(), step.child_args.begin(), step.child_args.end());
  argv.push_back("--json");
  CUDNNCTL_TRY_ASSIGN(const auto ran, platform::run_child(argv, {}, 3600 * 1000));
  const auto doc = nlohmann::json::parse(ran.out, nullptr, false);
  const auto text = [&](const char* a, const char* b) {
    return doc.is_object() && doc.contains(a) && doc[a].is_object() && doc[a].contains(b) && doc[a][b].is_string() ? doc[a][b].get<std::string>()
                                                                                                                   : std::string();
  };
  if (ran.exit_code != 0 || ran.signal != 0 || ran.timed_out) {
    const auto why = text("error", "message");
    return fail(
        ErrorCode::io,
        fmt::format("{} failed (exit status {}){}", step.command, ran.signal ? 128 + ran.signal : ran.exit_code, why.empty() ? "" : ": " + why),
        "run that command by hand to see its whole output", step.target);
  }
  const auto name = text("receipt", "canonical_name");
  return fmt::format("installed {} into {}", name.empty() ? std::string("cuDNN") : name, step.target);
}

// `path --apply` for the toolkit. Linux: its library folder listed in ld.so.conf.d (one file, written atomically: a
// kill leaves it written or not), ldconfig run, and the cache read back to check that the toolkit's cuDNN comes
// first. Windows: the registry PATH of the step's scope with the folder first, and CUDNN_PATH.
Result<std::string> put_toolkit_first(const FixStep& step, const Toolkit& t, const DoctorFacts& f, const platform::Environment& env) {
  const auto report = make_path_report(t, env, f.system_root, "");
  const auto scope = step.scope.empty() ? PathScope::process : step.scope == "machine" ? PathScope::machine : PathScope::user;
  CUDNNCTL_TRY_ASSIGN(const auto done, apply_loader_path(t, report, scope, f.system_root, env));
  if (scope != PathScope::process) return done.summary;
  return done.summary + "; programs started from now on load it (a running shell needs nothing)";
}

// a fixed check passes afterwards when the check run again reports no warning or failure for it
bool passes_after(const DoctorReport& after, const std::string& id) {
  return std::none_of(after.checks.begin(), after.checks.end(),
                      [&](const Check& c) { return c.id == id && (c.status == CheckStatus::fail || c.status == CheckStatus::warn); });
}

}  // namespace

Result<std::string> apply_fix(const FixStep& step, const DoctorFacts& f, const platform::Environment& env) {
  const auto* t = f.tk();
  if (!t) return fail(ErrorCode::internal, "doctor --fix: a step without the toolkit it was planned for");
  auto fs = make_real_fs();
  switch (step.operation) {
    case FixOperation::recover_toolkit: {
      CUDNNCTL_TRY_ASSIGN(auto done, recover_toolkit_state(*t, *fs));
      return done.empty() ? std::string("nothing was left to recover (another run settled it)") : done;
    }
    case FixOperation::install_release:
      return install_release(step);
    case FixOperation::repair_install:
      return repair_from_archive(step, *t, f, *fs);
    case FixOperation::unbundle:
      return unbundle_for_toolkit(step, *t, *fs, env);
    case FixOperation::loader_path:
      return put_toolkit_first(step, *t, f, env);
  }
  return fail(ErrorCode::internal, "doctor --fix: an unknown operation");
}

namespace {

// Before the steps: an interrupted bundle transaction (a killed unbundle) settled under the bundle state's lock, so
// that the diagnosis the steps act on is of a settled state. What it did, in words.
std::vector<std::string> settle_bundles(const DoctorFacts& f, const platform::Environment& env) {
  const auto root = bundle_state_root(env);
  std::error_code ec;
  if (!f.bundles().gathered || root.empty() || !std::filesystem::is_directory(path_from_utf8(root), ec)) return {};
  auto fs = make_real_fs();
  BundleContext ctx{root, fs.get()};
  auto held = hold_bundle_state(ctx);
  if (!held) return {"the bundle state could not be settled: " + held.error().message};
  auto done = recover_bundles(ctx);
  return done ? *done : std::vector<std::string>{"the bundle state could not be settled: " + done.error().message};
}

void apply_step(const FixStep& step, const DoctorFacts& f, const platform::Environment& env, DoctorFixOutcome& out) {
  log::info("doctor --fix: {} ({})", step.check, step.command);
  auto done = apply_fix(step, f, env);
  out.results.push_back(
      {step, done.has_value(), done ? *done : done.error().message, done ? std::string() : std::string(error_id(done.error().code))});
  if (std::find(out.fixed_checks.begin(), out.fixed_checks.end(), step.check) == out.fixed_checks.end()) out.fixed_checks.push_back(step.check);
}

// What the checks run again with: this process's environment, except after a registry PATH was written (Windows),
// where PATH is what a program started now gets (the machine's, then the user's): what the fix is for. A process
// cannot change its parent's PATH, and the doctor's own PATH is still the old one.
std::map<std::string, std::string> environment_after(const DoctorFixOutcome& out, const platform::Environment& env) {
  const bool registry = std::any_of(out.results.begin(), out.results.end(), [](const FixResult& r) { return r.applied && !r.step.scope.empty(); });
  if (!registry) return {};
  auto path = new_process_path(env);
  if (path) return {{"PATH", *path}};
  log::info("doctor --fix: the new PATH could not be read back from the registry ({}); the checks run again with this process's", path.error().message);
  return {};
}

}  // namespace

DoctorFixOutcome doctor_fix(const DoctorOptions& o, const platform::Environment& env, const DoctorFixRequest& req) {
  DoctorFixOutcome out;
  out.dry_run = req.dry_run;
  out.before = run_doctor(o, env);
  out.plan = plan_fixes(out.before, req.context, req.only);
  if (req.dry_run || out.plan.steps.empty()) return out;
  if (req.confirm && !req.confirm(out.plan)) {
    out.declined = true;
    return out;
  }
  // the recovery first: what it rolls back (and a settled bundle transaction) changes what the other steps must do,
  // so they are planned again over a new diagnosis
  auto steps = out.plan.steps;
  std::shared_ptr<const DoctorFacts> facts = out.before.facts;
  out.settled = settle_bundles(*facts, env);
  const bool recover = steps.front().operation == FixOperation::recover_toolkit;
  if (recover) {
    apply_step(steps.front(), *facts, env, out);
    if (!out.results.back().applied) steps.clear();  // nothing is done over a transaction that could not be settled
  }
  if ((recover || !out.settled.empty()) && !steps.empty()) {
    const auto again = run_doctor(o, env);
    facts = again.facts;
    steps = plan_fixes(again, req.context, req.only).steps;
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto step = steps[i];  // a copy: the steps after an install are planned again below
    if (step.operation == FixOperation::recover_toolkit) continue;
    apply_step(step, *facts, env, out);
    if (step.operation != FixOperation::install_release || !out.results.back().applied) continue;
    // the toolkit has a cuDNN now: the later steps (its loader path, above all) act on a new diagnosis
    const auto again = run_doctor(o, env);
    facts = again.facts;
    auto later = plan_fixes(again, req.context, req.only).steps;
    std::erase_if(later, [](const FixStep& s) { return s.operation <= FixOperation::install_release; });
    steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(i) + 1, steps.end());
    steps.insert(steps.end(), later.begin(), later.end());
  }
  auto touched = o;
  touched.only_layer = 0;
  touched.only_checks = out.fixed_checks;
  const platform::OverlayEnvironment after_env(env, environment_after(out, env));
  out.after = run_doctor(touched, after_env);
  return out;
}

ExitCode doctor_fix_exit_code(const DoctorFixOutcome& o) {
  if (o.dry_run || o.declined) return o.plan.steps.empty() ? ExitCode::ok : ExitCode::problems_found;
  for (const auto& r : o.results)
    if (!r.applied) return ExitCode::problems_found;
  for (const auto& id : o.fixed_checks)
    if (!passes_after(o.after, id)) return ExitCode::problems_found;
  return ExitCode::ok;
}

}  // namespace cudnnctl
