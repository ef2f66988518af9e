// doctor --fix's plan: every failing or warning check with its fix, automatic where a rule of fix_table.cpp
// applies to what was found, printed otherwise (with why, when the rule exists but cannot run here). The
// steps run in the operations' order (recovery first) and a step that would undo another's point is left out.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/doctor/fix.hpp"
#include "cudnnctl/env/ld_conf.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

namespace {

// Who owns the cuDNN files of a folder when a system package manager does (dpkg, rpm, pacman, Debian's
// nvidia-cudnn, NVIDIA's Windows installer; owner/owner_lookup.hpp): a fix never changes such a file, it prints the
// owner's own command. pip and conda own framework bundles by design: unbundle keeps their rules (docs/bundles.md),
// and cudnnctl's own receipt is what the repair restores. "" when no such owner has a cuDNN file there.
std::string package_manager_owner(const DoctorFacts&, const std::string& folder) {
  OwnerLookup lookup(package_root());
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path_from_utf8(folder), ec)) {
    const auto name = utf8_of(e.path().filename());
    if (!classify_cudnn_file(name, Os::linux_os) && !classify_cudnn_file(name, Os::windows)) continue;
    const auto o = lookup.owner_of(utf8_of(e.path()));
    if (o.foreign() && o.kind != OwnerKind::pip && o.kind != OwnerKind::conda) return describe(o);
  }
  return {};
}

std::string filled(std::string_view pattern, const std::string& root, const std::string& dir, const std::string& archive) {
  std::string out(pattern);
  const std::pair<std::string_view, std::string> words[] = {
      {"{root}", command_word(root)}, {"{dir}", command_word(dir)}, {"{archive}", command_word(archive)}};
  for (const auto& [key, value] : words)
    for (auto at = out.find(key); at != std::string::npos; at = out.find(key, at + value.size())) out.replace(at, key.size(), value);
  return out;
}

bool asked(const std::vector<std::string>& only, const std::string& id) {
  return only.empty() || std::find(only.begin(), only.end(), id) != only.end();
}

bool check_passes(const DoctorReport& r, std::string_view id) {
  return std::any_of(r.checks.begin(), r.checks.end(), [&](const Check& c) { return c.id == id && c.status == CheckStatus::pass; });
}

// a framework's own copy that it loads first (not set aside, not swapped by cudnnctl to something else)
bool shadows(const Bundle& b, unsigned major) { return b.cudnn_major == major && b.state != BundleState::unbundled && !b.files.empty(); }

void plan_bundles(const DoctorReport& r, const DoctorFacts& f, const Check& c, FixPlan& plan) {
  const auto& t = *f.tk();
  const auto cuda = t.cuda_major().value_or(0);
  for (const auto& b : f.bundles().bundles) {
    if (!shadows(b, *f.major) || c.finding.find("'" + b.dir + "'") == std::string::npos) continue;
    PrintedFix printed{c.id, c.status, c.fix, {}};
    if (b.cuda_major == 0 || b.cuda_major != cuda)
      printed.why = "the framework's CUDA major is not the toolkit's (or unknown): unbundle is refused";
    else if (!check_passes(r, "files.cudnn"))
      printed.why = "the toolkit's own cuDNN is not sound (files.cudnn): setting the bundle aside would leave the framework without one";
    else if (const auto owner = package_manager_owner(f, b.dir); !owner.empty())
      printed.why = fmt::format("{} owns '{}': its own command changes it", owner, b.dir);
    if (!printed.why.empty()) {
      plan.printed.push_back(std::move(printed));
      continue;
    }
    const auto* rule = automatic_fix(c.id);
    plan.steps.push_back({c.id,
                          rule->operation,
                          b.dir,
                          {},
                          filled(rule->command, t.root, b.dir, {}),
                          {fmt::format("moves the {} cuDNN files of '{}' into cudnnctl's bundle state (kept, `bundle restore` puts them back)",
                                       b.files.size(), b.dir)}});
  }
}

void plan_receipt(const DoctorFacts& f, const Check& c, const FixContext& ctx, FixPlan& plan) {
  const auto& t = *f.tk();
  const auto& r = f.receipt;
  const auto archive = r.archive.empty() ? std::string() : utf8_of(path_from_utf8(ctx.cache_dir) / path_from_utf8(r.archive).filename());
  std::error_code ec;
  PrintedFix printed{c.id, c.status, c.fix, {}};
  if (r.state != ReceiptFacts::State::differs)
    printed.why = "only files that differ from the receipt are repaired automatically";
  else if (archive.empty() || ctx.cache_dir.empty() || !std::filesystem::is_regular_file(path_from_utf8(archive), ec))
    printed.why = fmt::format("the receipt's archive {} is not in the download cache {}", r.archive, ctx.cache_dir);
  else if (const auto owner = package_manager_owner(f, f.runtime_dir); !owner.empty())
    printed.why = fmt::format("{} owns the toolkit's cuDNN: its own command reinstalls it", owner);
  if (!printed.why.empty()) {
    plan.printed.push_back(std::move(printed));
    return;
  }
  const auto* rule = automatic_fix(c.id);
  std::vector<std::string> changes;
  for (const auto& p : r.problems) changes.push_back("places again " + p);
  plan.steps.push_back({c.id, rule->operation, t.root, archive, filled(rule->command, t.root, {}, archive), std::move(changes)});
}

void plan_recover(const DoctorFacts& f, const Check& c, FixPlan& plan) {
  const auto& t = *f.tk();
  if (std::any_of(plan.steps.begin(), plan.steps.end(), [](const FixStep& s) { return s.operation == FixOperation::recover_toolkit; })) return;
  std::vector<std::string> changes;
  const auto& i = f.interrupted;
  if (i.journal_phase == "applying")
    changes.push_back(fmt::format("rolls back '{}' (the toolkit's files before it)", i.journal_description));
  else if (i.journal_phase == "committed")
    changes.push_back(fmt::format("finishes the clean-up of '{}'", i.journal_description));
  for (const auto& s : i.staging) changes.push_back("removes the staging folder " + s);
  if (!i.journal_error.empty()) {
    plan.printed.push_back({c.id, c.status, c.fix, "the journal cannot be read: " + i.journal_error});
    return;
  }
  const auto* rule = automatic_fix(c.id);
  plan.steps.push_back({c.id, rule->operation, t.root, {}, filled(rule->command, t.root, {}, {}), std::move(changes)});
}

// No cuDNN in the toolkit: with a mirror, `install latest --mirror` into it (the installer's own choice of release
// and its transaction); without one the printed fix stays, with why.
void plan_install(const DoctorFacts& f, const Check& c, const FixContext& ctx, FixPlan& plan) {
  const auto& t = *f.tk();
  PrintedFix printed{c.id, c.status, c.fix, {}};
  if (f.major)  // the toolkit has a cuDNN (files.cudnn found something else wrong with it)
    printed.why = "only a toolkit with no cuDNN at all is installed into automatically";
  else if (ctx.mirror.empty())
    printed.why = "no mirror was given: `doctor --fix --mirror URL` installs from one (or run `cudnnctl install latest` from NVIDIA)";
  else if (const auto owner = package_manager_owner(f, f.runtime_dir); !owner.empty())
    printed.why = fmt::format("{} owns files in '{}': its own command installs cuDNN there", owner, f.runtime_dir);
  if (!printed.why.empty()) {
    plan.printed.push_back(std::move(printed));
    return;
  }
  std::vector<std::string> args{"install", "latest", "--mirror", ctx.mirror, "--cuda-path", t.root, "--no-path"};
  if (!ctx.cache_dir.empty()) args.insert(args.end(), {"--cache", ctx.cache_dir});
  std::string command = "cudnnctl";  // what runs, as printed: one list of words for both
  for (const auto& a : args) command += " " + command_word(a);
  plan.steps.push_back({c.id,
                        FixOperation::install_release,
                        t.root,
                        {},
                        std::move(command),
                        {fmt::format("installs the newest cuDNN the catalog has for CUDA {} that fits this machine into {}, downloaded from {} "
                                     "and verified against the catalog (one journaled transaction; `cudnnctl uninstall` removes it)",
                                     t.cuda_major().value_or(0), f.runtime_dir, ctx.mirror),
                         "then the toolkit is diagnosed again over the installed library, and the later fixes act on that: where its "
                         "library folder is not first on the loader path, files.search_path's fix runs too (shown in the results)"},
                        std::move(args)});
}

// The copies of the toolkit's major that programs meet before the toolkit's own (all of them when it is not on
// the search path), skipping those the loader skips (another architecture).
std::vector<const CudnnCopy*> copies_ahead(const ShadowReport& sh, unsigned major) {
  std::vector<const CudnnCopy*> out;
  for (const auto& c : sh.copies) {
    if (c.installed) break;
    if (c.major == major && !c.other_machine) out.push_back(&c);
  }
  return out;
}

// Why `path --apply` cannot put the toolkit first here; "" when it can. Linux: ld.so.conf.d + ldconfig, as root,
// with nothing the loader reads before the cache in front. Windows: the registry PATH of the scope asked for.
std::string why_not_loader_path(const DoctorFacts& f) {
  if (f.offline || !f.search || !f.search_plan || !f.major) return "the search path of another machine is not changed from here";
  const auto& plan = *f.search_plan;
  if (f.model == LoaderModel::windows_pe)
    return plan.list_problem.empty() ? std::string() : fmt::format("{}: move or link the toolkit to a folder without it", plan.list_problem);
  const auto ahead = copies_ahead(*f.search, *f.major);
  const bool on_path = std::any_of(f.search->copies.begin(), f.search->copies.end(), [](const CudnnCopy& c) { return c.installed; });
  if (on_path && ahead.empty()) return "the toolkit's copy is what programs load: the finding is about a copy the loader skips";
  for (const auto* c : ahead)
    if (c->via != "ld.so cache" && c->via != "default folder")
      return fmt::format(
          "{} comes first through {}, which the loader reads before the ld.so cache: change it in the shell that sets it "
          "(`{}` in that shell, or remove the entry from its profile)",
          c->dir, c->via, plan.eval_command);
  if (const auto why = ld_conf_problem(plan.ld_conf_entry); !why.empty())
    return fmt::format("ldconfig cannot list '{}': {}", plan.ld_conf_entry, why);
  if (const auto why = conf_d_unread_under(f.system_root); !why.empty()) return why;
  if (f.system_root == "/" && !platform::is_privileged())
    return fmt::format("writing {} needs root: `sudo cudnnctl doctor --fix`, or for this shell only: {}", plan.ld_conf_path, plan.eval_command);
  return {};
}

// What the loader-path step changes, in words: the registry's PATH (Windows) or ld.so.conf.d (Linux).
std::vector<std::string> loader_path_changes(const DoctorFacts& f, const LoaderPathPlan& lp, const std::string& scope) {
  if (f.model == LoaderModel::windows_pe)
    return {fmt::format("writes PATH in {} with {} first (type kept, nothing else reordered) and CUDNN_PATH {}, and tells running programs",
                        scope == "machine" ? "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment" : "HKCU\\Environment",
                        lp.folder, lp.cudnn_path),
            "programs started afterwards load cuDNN from there; open terminals and IDEs keep their PATH until restarted; undo: "
            "remove the entry from PATH in Settings > System > About > Advanced system settings > Environment Variables"};
  return {fmt::format("writes {} (listing {}) and runs ldconfig{}: programs started afterwards find cuDNN in {} first", lp.ld_conf_path, lp.ld_conf_entry,
                      f.system_root == "/" ? "" : " -r " + f.system_root, lp.folder),
          fmt::format("a running shell needs nothing: each program reads the ld.so cache when it starts (LD_LIBRARY_PATH, when "
                      "set, is still searched first); undo: remove {} and run ldconfig",
                      lp.ld_conf_path)};
}

void plan_search_path(const DoctorFacts& f, const Check& c, const FixContext& ctx, FixPlan& plan) {
  if (auto why = why_not_loader_path(f); !why.empty()) {
    plan.printed.push_back({c.id, c.status, c.fix, std::move(why)});
    return;
  }
  const auto& t = *f.tk();
  const auto& lp = *f.search_plan;
  const bool windows = f.model == LoaderModel::windows_pe;
  auto command = filled(automatic_fix(c.id)->command, t.root, {}, {});
  if (windows) command += " --scope " + ctx.scope;
  if (f.system_root != "/") command += " --root " + command_word(f.system_root);
  plan.steps.push_back(
      {c.id, FixOperation::loader_path, lp.folder, {}, std::move(command), loader_path_changes(f, lp, ctx.scope), {}, windows ? ctx.scope : std::string()});
}

// Windows, a toolkit without cuDNN (the check fails only then): the installer's folder that fits it put on PATH
// (`path --apply` chooses the same one).
void plan_installer_path(const DoctorFacts& f, const Check& c, const FixContext& ctx, FixPlan& plan) {
  const auto* copy = installer_copy_for_toolkit(f);
  std::string why;
  if (f.offline) why = "the search path of another machine is not changed from here";
  else if (!copy) why = "no folder of the installer fits the toolkit's CUDA version: install one for it";
  if (!why.empty()) {
    plan.printed.push_back({c.id, c.status, c.fix, std::move(why)});
    return;
  }
  LoaderPathPlan lp;
  lp.folder = copy->dir;
  lp.cudnn_path = f.tk()->root;
  auto command = filled(automatic_fix(c.id)->command, f.tk()->root, {}, {}) + " --scope " + ctx.scope;
  plan.steps.push_back({c.id, FixOperation::loader_path, copy->dir, {}, std::move(command), loader_path_changes(f, lp, ctx.scope), {}, ctx.scope});
}

}  // namespace

FixPlan plan_fixes(const DoctorReport& r, const FixContext& ctx, const std::vector<std::string>& only) {
  FixPlan plan;
  const auto* f = r.facts.get();
  for (const auto& c : r.checks) {
    if ((c.status != CheckStatus::fail && c.status != CheckStatus::warn) || !asked(only, c.id)) continue;
    const auto* rule = automatic_fix(c.id);
    if (!rule || !f || !f->tk()) {
      plan.printed.push_back({c.id, c.status, c.fix, {}});
      continue;
    }
    switch (rule->operation) {
      case FixOperation::recover_toolkit:
        plan_recover(*f, c, plan);
        break;
      case FixOperation::install_release:
        plan_install(*f, c, ctx, plan);
        break;
      case FixOperation::repair_install:
        plan_receipt(*f, c, ctx, plan);
        break;
      case FixOperation::unbundle:
        plan_bundles(r, *f, c, plan);
        break;
      case FixOperation::loader_path:
        if (c.id == "files.windows_installer") plan_installer_path(*f, c, ctx, plan);
        else plan_search_path(*f, c, ctx, plan);
        break;
    }
  }
  std::stable_sort(plan.steps.begin(), plan.steps.end(), [](const FixStep& a, const FixStep& b) { return a.operation < b.operation; });
  return plan;
}

}  // namespace cudnnctl
