#pragma once
// `doctor --fix`: each check's fix as data (automatic: a cudnnctl operation with its arguments; printed: the
// check's own fix text), the plan made from a diagnosis, and the operations that carry it out, each one the
// journaled transaction of the command it reuses (install's recovery, install's repair, bundle unbundle).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct DoctorFacts;

/// The operations an automatic fix runs (fix_apply.cpp), in the order a plan runs them: recovery first, so
/// that no later transaction starts over an unfinished one; the loader path last, over the toolkit's files as the
/// steps before it left them.
enum class FixOperation { recover_toolkit, install_release, repair_install, unbundle, loader_path };
std::string_view to_string(FixOperation op);

/// One check's automatic fix, as data (fix_table.cpp). A check without a row has a printed fix: its text.
struct FixRule {
  std::string_view check;
  FixOperation operation;
  std::string_view command;  // the cudnnctl command it amounts to ({root}, {dir}, {archive} filled in by the plan)
  std::string_view fixes;    // which findings it repairs, in words (docs/doctor.md, --list-checks)
};
const std::vector<FixRule>& fix_rules();
/// The automatic fix of `check_id`; null: its fix is printed only.
const FixRule* automatic_fix(std::string_view check_id);

struct FixContext {
  std::string cache_dir;  // where `install VERSION` keeps verified archives (a receipt's archive is looked for there)
  std::string mirror;     // --mirror: where a toolkit without cuDNN installs one from (`install latest --mirror`); "": none
  std::string scope = "user";  // Windows: the registry PATH the loader-path fix writes (user, or machine when elevated)
};

/// One automatic fix in a plan.
struct FixStep {
  std::string check;
  FixOperation operation;
  std::string target;                // the toolkit root, the bundle folder, or the library folder put first
  std::string archive;               // repair_install: the cached archive
  std::string command;               // the command it amounts to
  std::vector<std::string> changes;  // what it will change, in words
  std::vector<std::string> child_args{};  // install_release: the cudnnctl command it runs, as arguments (after the program)
  std::string scope{};                    // loader_path on Windows: the registry scope written (user, machine)
};

struct PrintedFix {
  std::string check;
  CheckStatus status = CheckStatus::warn;
  std::string fix;  // the check's fix text
  std::string why;  // why it is not automatic here (empty: it never is)
};

struct FixPlan {
  std::vector<FixStep> steps;
  std::vector<PrintedFix> printed;
};

/// The plan for a diagnosis: every failing or warning check (only `only` when given) with its fix.
FixPlan plan_fixes(const DoctorReport& report, const FixContext& ctx, const std::vector<std::string>& only);

struct FixResult {
  FixStep step;
  bool applied = false;
  std::string message;   // what it did, or the error
  std::string error_id;  // the error's stable id when it failed
};

/// Runs one step as its own transaction (the lock and journal of the command it reuses).
Result<std::string> apply_fix(const FixStep& step, const DoctorFacts& facts, const platform::Environment& env);

struct DoctorFixOutcome {
  DoctorReport before, after;
  FixPlan plan;
  std::vector<FixResult> results;
  bool dry_run = false;
  bool declined = false;                  // the user said no
  std::vector<std::string> fixed_checks;  // the checks the steps touched, run again afterwards
  std::vector<std::string> settled;       // interrupted bundle transactions settled before the steps, in words
};

struct DoctorFixRequest {
  FixContext context;
  std::vector<std::string> only;  // --fix ID: only these checks
  bool dry_run = false;
  std::function<bool(const FixPlan&)> confirm;  // asked before anything is done (null: yes)
};

/// Diagnose, plan, ask, apply each step, then run the touched checks again.
DoctorFixOutcome doctor_fix(const DoctorOptions& options, const platform::Environment& env, const DoctorFixRequest& request);

/// 0 when every fixed check passes afterwards (or nothing needed fixing), 10 otherwise.
ExitCode doctor_fix_exit_code(const DoctorFixOutcome& outcome);
std::string fix_plan_text(const FixPlan& plan);
std::string doctor_fix_text(const DoctorFixOutcome& outcome);
nlohmann::json doctor_fix_json(const DoctorFixOutcome& outcome);

}  // namespace cudnnctl
