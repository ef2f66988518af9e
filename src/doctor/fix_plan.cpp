// doctor --fix's plan: every failing or warning check with its fix, automatic where a rule of fix_table.cpp
// applies to what was found, printed otherwise (with why, when the rule exists but cannot run here). The
// steps run in the operations' order (recovery first) and a step that would undo another's point is left out.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/doctor/fix.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"

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
  for (const auto& b : f.bundles.bundles) {
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
      case FixOperation::repair_install:
        plan_receipt(*f, c, ctx, plan);
        break;
      case FixOperation::unbundle:
        plan_bundles(r, *f, c, plan);
        break;
    }
  }
  std::stable_sort(plan.steps.begin(), plan.steps.end(), [](const FixStep& a, const FixStep& b) { return a.operation < b.operation; });
  return plan;
}

}  // namespace cudnnctl
