#include "cudnnctl/install/install_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"

namespace cudnnctl {

std::string_view to_string(StepKind k) {
  switch (k) {
  case StepKind::copy_file: return "copy";
  case StepKind::make_symlink: return "symlink";
  case StepKind::remove_stale: return "remove-stale";
  }
  return "?";
}

namespace {

Unexpected<Error> layout_error(const PlanInputs& in, const std::string& member, std::string why) {
  return fail(ErrorCode::archive_layout, fmt::format("{}: the member '{}' {}", in.name.canonical, member, why),
              "cudnnctl installs NVIDIA's archives as published; a re-packed archive must keep NVIDIA's layout",
              in.name.canonical);
}

// Which toolkit folder a member (path below the top folder) belongs in; empty when unknown.
std::string destination_folder(const PlanInputs& in, const std::string& rel, const std::string& file) {
  const auto& t = in.toolkit;
  const auto lower = to_lower_ascii(rel);
  const auto ext = to_lower_ascii(file.substr(file.rfind('.') == std::string::npos ? file.size() : file.rfind('.')));
  if (lower.starts_with("include/")) return t.include_dir;
  if (in.name.os == Os::windows) {
    // DLLs from bin\ and its machine folders (bin\x64, bin\arm64), import libraries from lib\ and lib\<machine>
    if (lower.starts_with("bin/") && ext == ".dll") return t.dll_dir;
    if (lower.starts_with("lib/") && ext == ".lib") return t.lib_dir;
    return {};
  }
  if (lower.starts_with("lib/") || lower.starts_with("lib64/")) return t.lib_dir;
  return {};
}

} // namespace

Result<std::vector<std::string>> check_compatibility(const ArchiveName& name, const Toolkit& tk, const std::vector<SupportRow>& support,
                                                     bool force) {
  std::vector<std::string> warnings;
  auto check = [&](bool ok, std::string why, std::string hint) -> Result<void> {
    if (ok) return {};
    if (force) {
      warnings.push_back("--force: " + why);
      return {};
    }
    return fail(ErrorCode::incompatible, fmt::format("refusing to install {} into {}: {}", name.canonical, tk.root, why), std::move(hint),
                name.canonical);
  };
  CUDNNCTL_TRY(check(name.os == tk.os, fmt::format("the archive is for {} but the toolkit is a {} toolkit", to_string(name.os), to_string(tk.os)),
                     "use the archive for the toolkit's platform (cudnnctl inspect NAME shows which one)"));
  if (!tk.version.empty()) {
    CUDNNCTL_TRY(
        check(name.cuda_major() == tk.major(),
              fmt::format("the archive is built for CUDA {}.x (cuda{}) and the toolkit is CUDA {}", name.cuda_major(), name.cuda_variant, tk.version),
              fmt::format("use the _cuda{} archive of this release, or a CUDA {}.x toolkit (--cuda-path)", tk.major(), name.cuda_major())));
    // NVIDIA lists a build in several rows (by GPU family, by static linking): a toolkit any row lists fits
    std::vector<std::string> ranges, sources;
    bool listed = false;
    for (const auto& row : support) {
      if (row.cuda_toolkits.empty()) continue;
      listed = listed || std::find(row.cuda_toolkits.begin(), row.cuda_toolkits.end(), tk.version) != row.cuda_toolkits.end();
      ranges.push_back(row.cuda_toolkits.size() == 1 ? row.cuda_toolkits.front() : row.cuda_toolkits.front() + "-" + row.cuda_toolkits.back());
      if (std::find(sources.begin(), sources.end(), row.source) == sources.end()) sources.push_back(row.source);
    }
    if (!ranges.empty())
      CUDNNCTL_TRY(check(listed,
                         fmt::format("NVIDIA's support matrix for cuDNN {} cuda{} lists CUDA {}, not {} (source: {})", name.version.release_label(),
                                     name.cuda_major(), fmt::join(ranges, ", "), tk.version, fmt::join(sources, "; ")),
                         "use a cuDNN release that supports this toolkit, or --force to install anyway"));
  }
  return warnings;
}

Result<InstallPlan> make_install_plan(const PlanInputs& in) {
  InstallPlan plan;
  const auto& name = in.name;
  const auto& tk = in.toolkit;
  plan.state_dir = ".cudnnctl";
  CUDNNCTL_TRY_ASSIGN(auto compatible, check_compatibility(name, tk, in.support, in.force));
  plan.warnings = std::move(compatible);

  // ---- map members
  const std::string top = name.top_folder() + "/";
  std::set<std::string> targets;
  for (const auto& e : in.listing.entries) {
    if (e.type == EntryType::directory) continue;
    if (!e.name.starts_with(top)) return layout_error(in, e.name, fmt::format("lies outside the top folder '{}'", top));
    const std::string rel = e.name.substr(top.size());
    const std::string file(base_name(rel));
    if (rel == "LICENSE" || rel == "NVIDIA_SLA_cuDNN_Support.txt" || rel == "LICENSE.txt") {
      plan.steps.push_back({StepKind::copy_file, e.name, fmt::format("{}/cudnn-{}-{}", plan.state_dir, name.version.to_string(), file),
                            "", e.size, false});
      continue;
    }
    const auto folder = destination_folder(in, rel, file);
    if (folder.empty()) return layout_error(in, e.name, "is not where NVIDIA's layout puts headers and libraries");
    if (!is_cudnn_release_file(file, name.os))
      return layout_error(in, e.name, fmt::format("is not a cuDNN file; installing it would overwrite the toolkit's own '{}'", file));
    const std::string target = folder + "/" + file;
    if (!targets.insert(to_lower_ascii(target)).second)
      return layout_error(in, e.name, fmt::format("lands on '{}' like another member does", target));
    PlanStep step;
    step.source = e.name;
    step.target = target;
    step.size = e.size;
    if (e.type == EntryType::symlink) {
      step.kind = StepKind::make_symlink;
      step.link_target = e.link_target;
    } else if (e.type == EntryType::file) {
      step.kind = StepKind::copy_file;
    } else {
      return layout_error(in, e.name, "is a hard link or special file");
    }
    plan.steps.push_back(step);
  }

  // ---- what is there now: replaced files are backed up; other cuDNN files are stale
  for (const auto& existing : in.existing) {
    const std::string file(base_name(existing));
    if (!is_cudnn_release_file(file, tk.os)) continue;
    const auto lower = to_lower_ascii(existing);
    bool replaced = false;
    for (auto& s : plan.steps)
      if (to_lower_ascii(s.target) == lower) s.replaces = replaced = true;
    if (!replaced) plan.steps.push_back({StepKind::remove_stale, "", existing, "", 0, false});
  }
  return plan;
}

} // namespace cudnnctl
