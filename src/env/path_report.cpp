#include "cudnnctl/env/path_report.hpp"

#include <filesystem>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/shadow_report_json.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {

// Windows, a toolkit without cuDNN: NVIDIA's cuDNN installer's copy that fits the toolkit's CUDA version (under
// %ProgramFiles%\NVIDIA\CUDNN) takes the toolkit's place in the plan. Its note replaces "install one".
void use_installer_copy(PathReport& r, const Toolkit& t, const platform::Environment& env) {
  const auto root = installer_root(env.get("ProgramFiles"));
  const auto current = env.get("PATH").value_or("");
  const auto copies = list_installer_copies(root, root, installer_listing_here(), split_path_list(current, PathFlavor::windows));
  const auto* c = fitting_installer_copy(copies, t.version.empty() ? t.major() : t.version);
  if (!c) return;
  r.installer_copy = *c;
  put_folder_first_instead(r.plan, c->dir, current, env);
  r.notes.push_back(fmt::format(
      "the toolkit holds no cuDNN; NVIDIA's cuDNN installer put cuDNN {} for CUDA {} in {}: that folder goes first on PATH (the "
      "installer's own entry {}\\bin holds no DLLs). Or install the same release into the toolkit: '{}'",
      c->version.empty() ? c->release : c->version, c->cuda, c->dir, c->dir.substr(0, c->dir.rfind("\\bin\\")),
      toolkit_command(t.root, "install", "<archive>")));
}

}  // namespace

std::string list_problem_note(const LoaderPathPlan& plan) {
  return plan.list_problem.empty() ? std::string() : plan.list_problem + ": no " + plan.variable + " or GitHub Actions lines are given for it";
}

PathReport make_path_report(const Toolkit& toolkit, const platform::Environment& env, const std::string& system_root,
                            const std::string& consumer, const std::string* ld_cache_text) {
  PathReport r;
  const auto host = platform::detect_host();
  r.plan = plan_loader_path(toolkit, env.get(toolkit.os == Os::windows ? "PATH" : "LD_LIBRARY_PATH").value_or(""), system_root, env);
  for (const auto& w : r.plan.warnings) r.notes.push_back(w);
  if (const auto note = list_problem_note(r.plan); !note.empty()) r.notes.push_back(note);
  if (host.os != toolkit.os) {
    r.notes.push_back(fmt::format("the toolkit is a {} toolkit and this machine is {}: the search order is that machine's to scan",
                                  to_string(toolkit.os), host.description));
    return r;
  }
  const auto major = toolkit_cudnn_major(toolkit);
  r.cudnn_file = toolkit_cudnn_file(toolkit, r.plan.folder);
  // only a toolkit that holds a cuDNN can be shadowed: for one that holds none, say so instead
  const auto installed_dir = r.cudnn_file.empty() ? std::string() : r.plan.folder;
  if (r.cudnn_file.empty() && toolkit.os == Os::windows) use_installer_copy(r, toolkit, env);
  if (r.cudnn_file.empty() && !r.installer_copy)
    r.notes.push_back(fmt::format("the toolkit holds no cuDNN (no {} in {}): install one with '{}'",
                                  toolkit.os == Os::windows ? "cudnn64_N.dll" : "libcudnn.so.N", r.plan.folder,
                                  toolkit_command(toolkit.root, "install", "<archive>")));
  if (toolkit.os == Os::windows) {
    const auto scan_major = r.installer_copy ? parse_uint_or(split(r.installer_copy->release, '.').front(), 0) : major;
    const auto scan_installed = r.installer_copy ? r.installer_copy->dir : installed_dir;
    const auto app_dir = consumer.empty() ? std::string() : utf8_of(path_from_utf8(consumer).parent_path());
    std::error_code ec;  // a program started from here searches this folder too (after the Windows folder)
    const auto cwd = utf8_of(std::filesystem::current_path(ec));
    r.shadows = scan_cudnn_copies(windows_search_order(env, app_dir, ec ? std::string() : cwd), LoaderFlavor::windows, scan_major, scan_installed);
    return r;
  }
  OwnSearchPaths own;
  if (!consumer.empty()) {
    auto elf = read_elf_file(consumer);
    if (!elf) r.notes.push_back(elf.error().message);
    else own = own_search_paths(elf->rpath, elf->runpath, utf8_of(path_from_utf8(consumer).parent_path()));
  }
  std::vector<std::string> cache;
  if (ld_cache_text) cache = parse_ldconfig_cache(*ld_cache_text);
  else if (auto text = read_ld_cache_text(system_root); text)
    cache = parse_ldconfig_cache(*text);
  else r.notes.push_back(text.error().message + ": it is left out of the search order");
  r.shadows = scan_cudnn_copies(linux_search_order(env, own, cache, multiarch_triplet(host.arch)), LoaderFlavor::linux_ld, major, installed_dir);
  return r;
}

nlohmann::json path_report_json(const PathReport& r) {
  using nlohmann::json;
  const auto& p = r.plan;
  json j{{"folder", p.folder},
         {"variable", p.variable},
         {"before", p.fix.before},
         {"after", p.fix.after},
         {"changed", p.fix.changed},
         {"dropped", p.fix.dropped},
         {"ld_conf", p.ld_conf_path.empty() ? json(nullptr) : json{{"path", p.ld_conf_path}, {"entry", p.ld_conf_entry}, {"content", p.ld_conf_content}}},
         {"cudnn_path", p.cudnn_path},
         {"toolkit_cudnn", r.cudnn_file.empty() ? json(nullptr) : json(r.cudnn_file)},
         {"list_problem", p.list_problem.empty() ? json(nullptr) : json(p.list_problem)},
         {"notes", r.notes}};
  j["shadow_scan"] = r.shadows ? shadow_report_json(*r.shadows) : json(nullptr);
  if (const auto& c = r.installer_copy)
    j["installer_copy"] = {{"dir", c->dir}, {"release", c->release}, {"cuda", c->cuda}, {"version", c->version.empty() ? json(nullptr) : json(c->version)}};
  else
    j["installer_copy"] = nullptr;
  return j;
}

std::string shadow_table(const ShadowReport& s) {
  if (s.copies.empty()) return "  no cuDNN library on the search path\n";
  std::string out;
  for (const auto& c : s.copies)
    out += fmt::format("  {} {:<10} {:<40} {} (via {}){}{}\n      owner: {}\n", c.wins ? "*" : " ", c.version, c.dir, c.main_file, c.via,
                       c.installed ? "  <- this toolkit" : "", c.other_machine ? fmt::format("  [{}: skipped, another architecture]", c.machine) : "",
                       describe(c.owner));
  return out;
}

} // namespace cudnnctl
