// Layer 1 and 2 facts: the toolkit, its files, the receipt and journal, the search path.
#include "cudnnctl/doctor/gather.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

void gather_toolkit(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env) {
  auto& t = f.toolkit;
  t.cuda_path = o.cuda_path;
  t.target = o.target;
  // the run's machine surveys the environment (once, whoever asks first: explain --here shares its machine)
  const auto& survey = f.own_machine().toolkits(o.cuda_path);
  t.found = survey.found;
  t.notes = survey.notes;
  t.chosen = choose_toolkit(t.found, std::nullopt).toolkit;
  if (!t.chosen) return;
  std::error_code ec;
  const auto chosen = fs::weakly_canonical(path_from_utf8(t.chosen->root), ec);
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
    const auto v = env.get(var);
    if (v && !v->empty() && fs::weakly_canonical(path_from_utf8(*v), ec) != chosen) t.env_differs.emplace_back(var, *v);
  }
  f.target_fits = o.target.empty() || to_lower_ascii(o.target) == to_string(t.chosen->os);
}

void gather_cuda_vars(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"}) {
    CudaVar v;
    v.name = var;
    const std::string value = env.get(var).value_or(std::string());
    if (!value.empty()) {
      std::string folder = value;  // "/usr/local/cuda/" names the same folder as "/usr/local/cuda"
      while (folder.size() > 1 && (folder.back() == '/' || folder.back() == '\\')) folder.pop_back();
      v.is_dir = sys.is_dir(folder);
      std::error_code ec;
      v.canonical = utf8_of(fs::weakly_canonical(path_from_utf8(folder), ec).lexically_normal());
      if (v.canonical.size() > 1 && (v.canonical.back() == '/' || v.canonical.back() == '\\')) v.canonical.pop_back();
      v.value = value;
    }
    f.toolkit.cuda_vars.push_back(std::move(v));
  }
}

void gather_glibc_floor(DoctorFacts& f, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || t->os != Os::linux_os || f.host_os != Os::linux_os || !f.major) return;
  auto& g = f.glibc_floor;
  for (const auto& n : f.lib_names) {
    const auto c = classify_cudnn_file(n, t->os);
    if (!c || !c->full_version.empty()) continue;  // one name per library: libcudnn_ops.so.9, not its versioned twin
    auto elf = sys.read_elf(join_path(f.runtime_dir, n));
    if (!elf) {
      g.unreadable.push_back(n);
      continue;
    }
    g.floor.add(n, elf->version_needs);
  }
  g.host = detect_host_symbol_versions();
  g.gathered = g.floor.libraries > 0;
}

void gather_files(DoctorFacts& f, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t) return;
  f.runtime_dir = t->runtime_library_dir();
  f.lib_names = sys.list_dir(f.runtime_dir);
  for (const auto& h : version_header_names())
    if (const auto text = sys.read_text(utf8_of(path_from_utf8(t->root) / t->include_dir / h)))
      if ((f.header = parse_version_header(*text))) break;
  std::vector<unsigned> majors;
  for (const auto& n : f.lib_names)
    if (const auto c = classify_cudnn_file(n, t->os); c && c->main() && c->full_version.empty()) majors.push_back(c->major);
  if (!majors.empty())
    f.major = f.header && std::count(majors.begin(), majors.end(), f.header->major) ? f.header->major : *std::max_element(majors.begin(), majors.end());
  if (t->os == Os::windows && f.major)
    for (const auto& d : cudnn_dll_names(f.lib_names)) f.dlls.emplace(d, sys.read_pe(join_path(f.runtime_dir, d)));
  if (t->os == Os::linux_os && f.major) {
    // a file with cuDNN's name is not yet cuDNN: the loader maps only an ELF shared library
    const auto main = library_file_name(t->os, "cudnn", *f.major);
    if (auto elf = sys.read_elf(join_path(f.runtime_dir, main)); !elf) f.unloadable.push_back(fmt::format("{} ({})", main, elf.error().message));
  }
}

// cuDNN files (of any release: contract's classifier) in the folders an install writes to that the
// receipt does not list: another release's left-overs mixed with the installed one
std::vector<std::string> unlisted_cudnn_files(const Toolkit& t, const Receipt& receipt, DoctorSystem& sys) {
  std::set<std::string> listed;
  for (const auto& file : receipt.files) listed.insert(to_lower_ascii(file.path));
  const auto dirs = t.install_dirs();
  std::vector<std::string> out;
  for (const auto& d : dirs)
    for (const auto& n : sys.list_dir(join_path(t.root, d)))
      if (is_cudnn_release_file(n, t.os) && !listed.contains(to_lower_ascii(d + "/" + n))) out.push_back(d + "/" + n);
  std::sort(out.begin(), out.end());
  return out;
}

void gather_state(DoctorFacts& f, unsigned needs, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || !(needs & need_receipt)) return;
  const auto state = state_dir_of(*t);
  auto fs_ = make_real_fs();
  // a transaction that did not finish, and staging folders of runs that died
  if (auto j = read_journal(*fs_, state); !j) f.interrupted.journal_error = j.error().message;
  else if (*j) {
    f.interrupted.journal_phase = (*j)->phase;
    f.interrupted.journal_description = (*j)->description;
  }
  for (const auto& n : sys.list_dir(state))
    if (n.starts_with("staging-") && sys.is_dir(join_path(state, n))) f.interrupted.staging.push_back(join_path(state, n));
  if (!f.major) return;
  auto& r = f.receipt;
  if (fs_->entry(receipt_path(state)) == FsEntry::missing) return;
  auto text = fs_->read_text(receipt_path(state));
  auto receipt = text ? receipt_from_json(*text, receipt_path(state)) : Result<Receipt>(Unexpected<Error>(text.error()));
  if (!receipt) {
    r.state = ReceiptFacts::State::corrupt;
    r.error = receipt.error().message;
    return;
  }
  r.problems = check_receipt(*receipt, t->root, *fs_);
  r.state = r.problems.empty() ? ReceiptFacts::State::ok : ReceiptFacts::State::differs;
  r.files = receipt->files.size();
  r.canonical_name = receipt->canonical_name;
  r.archive = receipt->archive;
  r.sha256 = receipt->sha256;
  r.unlisted = unlisted_cudnn_files(*t, *receipt, sys);
}

void gather_search_path(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || !f.major) return;
  if (t->os == Os::windows && f.offline) {
    if (!f.win.order) {
      f.search_skipped = "that machine's PATH was not given (--path-value \"...\" or --path-file machine.reg): the copies on it were not checked";
      return;
    }
    // the programs of a toolkit read offline run on its machine: bin\arm64 (an ARM64 toolkit) means ARM64 processes
    const auto dll_folder = path_from_utf8(f.win.dll_dir);
    const auto machine_folder = utf8_of(dll_folder.parent_path().filename() / dll_folder.filename());
    const bool arm64_toolkit = &windows_machine_of_dll_dir(machine_folder) == &windows_machine(Arch::arm64);
    f.search = scan_cudnn_copies(*f.win.order, LoaderFlavor::windows, *f.major, f.win.dll_dir,
                                 arm64_toolkit ? pe_machine_name(windows_machine(Arch::arm64).pe_machine) : std::string());
    f.search_origin = o.windows_path_origin.empty() ? "the given PATH" : o.windows_path_origin;
    std::size_t unreachable = 0;
    for (const auto& sd : *f.win.order) unreachable += sd.local == "?";
    if (unreachable)
      f.notes.push_back(fmt::format("{} of the {} folders on that PATH are not reachable from here (no drive mapped; --drive X:=DIR)", unreachable,
                                    f.win.order->size()));
    return;
  }
  auto report = make_path_report(*t, env, o.system_root, "", &sys.ld_cache_text());
  f.search = std::move(report.shadows);
  f.search_plan = std::move(report.plan);
  f.search_origin = "this process's environment";
}

void gather_support(DoctorFacts& f, const DoctorOptions& o) {
  const auto* t = f.tk();
  if (!t || !f.header) return;
  const auto& catalog = o.catalog ? *o.catalog : Catalog::embedded();
  for (const auto* r : catalog.support_for(f.header->text(), t->major())) f.support.push_back(*r);
}

Machine& DoctorFacts::own_machine() {
  if (!machine) machine = std::make_shared<Machine>(driver_library);
  return *machine;
}

std::shared_ptr<Machine> doctor_machine(const DoctorOptions& o, const platform::Environment& env, const std::string& driver_library) {
  return o.machine ? o.machine : std::make_shared<Machine>(driver_library, probe_machine_gpus, platform::snapshot_environment(env));
}

DoctorFacts gather_facts(const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys, unsigned needs) {
  DoctorFacts f;
  const auto host = platform::detect_host();
  f.host_os = host.os;
  f.host_description = host.description;
  f.system_root = o.system_root;
  f.no_gpu = o.no_gpu;
  f.driver_library = o.driver_library.empty() ? (host.os == Os::windows ? "nvcuda.dll" : "libcuda.so.1") : o.driver_library;
  f.driver_version_file = o.driver_version_file;
  f.machine = doctor_machine(o, env, f.driver_library);
  gather_toolkit(f, o, env);
  gather_cuda_vars(f, env, sys);
  const auto* t = f.tk();
  if (!t) return f;
  f.offline = o.offline || t->os != host.os;
  f.model = t->os == Os::windows ? LoaderModel::windows_pe : LoaderModel::linux_elf;
  gather_files(f, sys);
  // the probe child (it loads the cuDNN libraries: the longest single fact) beside the rest: it needs only the
  // toolkit, runtime_dir and major gathered above, writes f.probe alone, and is read only by gather_workload
  std::future<void> probing;
  if (!f.offline && (needs & need_probe)) probing = std::async(std::launch::async, [&] { gather_probe(f, o, sys); });
  gather_glibc_floor(f, sys);
  if (f.model == LoaderModel::windows_pe) gather_windows(f, o, env, sys);
  gather_state(f, needs, sys);
  // the bundles' folder walk (and any interpreter it must ask) beside the search path's gathering: it writes
  // the machine's bundles alone and reads what was gathered above; the GPU code reads them
  std::future<void> bundles;
  if (needs & need_bundles)
    bundles = std::async(std::launch::async, [&] {
      log::Phase phase("doctor: bundles");
      gather_bundles(f, o, env, sys);
    });
  if (needs & need_search_path) gather_search_path(f, o, env, sys);
  {
    log::Phase phase("doctor: GPU code");
    gather_cudnn_gpu_code(f, needs, sys);  // still beside the bundles' walk: it reads only the toolkit's files
  }
  gather_support(f, o);  // the built-in catalog parsed here, while the walk and the probe run
  if (bundles.valid()) bundles.get();
  gather_framework_gpu_code(f, needs, sys);
  if (needs & need_linkage) gather_linkage(f, env, sys);
  if (needs & need_driver_files) gather_driver(f, env, sys);
  // the whole stack a program here could load: a Linux toolkit of this (Linux) machine
  if (!f.offline && (needs & need_stack) && f.host_os == Os::linux_os && f.model == LoaderModel::linux_elf) gather_stack(f, env, sys);
  if (const auto problem = sys.ld_cache_problem(); !problem.empty()) f.notes.push_back(problem);
  if (probing.valid()) {
    log::Phase phase("doctor: wait for the probe");
    probing.get();
  }
  know_probe_gpus(f);  // after gather_driver: the driver's version goes with the GPUs
  if (!f.offline && (needs & need_workload)) gather_workload(f, sys);
  return f;
}

} // namespace cudnnctl
