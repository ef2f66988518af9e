// The doctor's checks run on facts held in memory: no disk, no child process.
#include <catch2/catch.hpp>

#include <set>

#include <fmt/format.h>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

Toolkit linux_tk() {
  Toolkit t;
  t.root = "/opt/cuda";
  t.version = "12.4";
  t.os = Os::linux_os;
  t.lib_dir = "lib64";
  t.include_dir = "include";
  t.found_by = "--cuda-path";
  return t;
}

Toolkit windows_tk() {
  Toolkit t;
  t.root = "C:/CUDA/v12.4";
  t.version = "12.4";
  t.os = Os::windows;
  t.dll_dir = "bin";
  t.lib_dir = "lib/x64";
  t.include_dir = "include";
  t.found_by = "CUDA_PATH";
  return t;
}

DoctorFacts healthy_linux() {
  DoctorFacts f;
  f.toolkit.chosen = linux_tk();
  f.runtime_dir = "/opt/cuda/lib64";
  f.lib_names = {"libcudnn.so.9", "libcudnn.so.9.1.0"};
  for (const auto* s : {"adv", "cnn", "engines_precompiled", "engines_runtime_compiled", "graph", "heuristic", "ops"}) {
    f.lib_names.push_back(fmt::format("libcudnn_{}.so.9", s));
    f.lib_names.push_back(fmt::format("libcudnn_{}.so.9.1.0", s));
  }
  f.header = CudnnHeaderVersion{9, 1, 0};
  f.major = 9;
  return f;
}

const Check* find(const Checks& cs, const std::string& id) {
  for (const auto& c : cs)
    if (c.id == id) return &c;
  return nullptr;
}

} // namespace

TEST_CASE("the check table: unique ids, in layer order, and --layer picks what is gathered", "[doctor][checks]") {
  std::set<std::string_view> ids;
  int layer = 1;
  for (const auto& row : check_table()) {
    INFO(row.id);
    CHECK(ids.insert(row.id).second);
    CHECK(row.layer >= layer);
    CHECK(row.run != nullptr);
    layer = row.layer;
  }
  CHECK((needs_for_layer(2, false) & (need_probe | need_workload)) == 0u);
  CHECK((needs_for_layer(1, false) & (need_probe | need_linkage | need_search_path)) == 0u);
  CHECK((needs_for_layer(3, false) & need_probe) != 0u);
  CHECK((needs_for_layer(3, false) & need_workload) == 0u);
  CHECK((needs_for_layer(0, false) & need_workload) != 0u);
  CHECK((needs_for_layer(0, true) & (need_probe | need_workload)) == 0u);
}

TEST_CASE("layer 2 checks on in-memory facts", "[doctor][checks]") {
  auto f = healthy_linux();
  CHECK(run_check(f, "files.cudnn")[0].finding == "cuDNN 9.1.0 in /opt/cuda/lib64");
  CHECK(run_check(f, "files.complete")[0].status == CheckStatus::pass);
  CHECK(run_check(f, "files.versions")[0].finding == "libraries and header agree on 9.1.0");
  CHECK(run_check(f, "files.stale").empty());
  CHECK(run_check(f, "files.headers").empty());

  f.lib_names.push_back("libcudnn_ops_infer.so.8");
  f.lib_names.push_back("libcudnn_cnn.so.9.2.0");
  std::erase(f.lib_names, "libcudnn_heuristic.so.9");
  const auto stale = run_check(f, "files.stale");
  REQUIRE(stale.size() == 1);
  CHECK_THAT(stale[0].finding, Catch::Contains("libcudnn_ops_infer.so.8"));
  CHECK_THAT(run_check(f, "files.complete")[0].finding, Catch::Contains("libcudnn_heuristic.so.9"));
  CHECK(run_check(f, "files.versions")[0].status == CheckStatus::fail);

  DoctorFacts none;
  none.toolkit.chosen = linux_tk();
  none.runtime_dir = "/opt/cuda/lib64";
  CHECK(run_check(none, "files.cudnn")[0].status == CheckStatus::fail);
  CHECK(run_check(none, "files.complete").empty());  // nothing more is said about files that are not there
  CHECK(run_check(none, "loader.skipped")[0].finding == "skipped: no cuDNN library to load (layer 2)");
}

TEST_CASE("layer 3 (Linux model) on in-memory facts: unresolved and unreadable libraries", "[doctor][checks]") {
  auto f = healthy_linux();
  f.linkage.needed = {{"libcudnn_ops.so.9", "libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1", "default folder"},
                      {"libcudnn_graph.so.9", "libstdc++.so.6", "/usr/lib/libstdc++.so.6", "ld.so cache"}};
  CHECK(run_check(f, "loader.needed")[0].finding == "all 2 static dependencies resolve");
  f.linkage.needed[0].found_at.clear();
  const auto c = run_check(f, "loader.needed");
  CHECK(c[0].status == CheckStatus::fail);
  CHECK_THAT(c[0].finding, Catch::Contains("libcudnn_ops.so.9 needs libz.so.1"));
  f.linkage.runtime_missing = {{"libnvrtc.so.12", "the runtime-compiled engines"}};
  CHECK(run_check(f, "loader.runtime_deps")[0].status == CheckStatus::warn);
  f.offline = true;
  CHECK(run_check(f, "loader.load")[0].status == CheckStatus::skip);
}

TEST_CASE("layers 4 and 5 on a scripted probe: no driver, then a GPU", "[doctor][checks]") {
  auto f = healthy_linux();
  ProbeResult p;
  p.version = 90100;
  p.driver_loaded = false;
  p.driver_error = "libcuda.so.1: cannot open shared object file";
  f.probe = p;
  know_probe_gpus(f);
  REQUIRE(f.gpus());
  CHECK_FALSE(f.gpus()->driver_found);
  CHECK(run_check(f, "driver.library")[0].id == "driver.library");
  CHECK(run_check(f, "driver.library")[0].status == CheckStatus::skip);
  CHECK(run_check(f, "driver.version").empty());
  CHECK(run_check(f, "workload.conv")[0].finding == "skipped: layer 4 found no usable GPU");
  p.driver_loaded = true;
  p.cu_init = 0;
  p.devices = {{"NVIDIA H200", 9, 0}};
  p.max_device_version = 900;
  p.create_status = 0;
  f.probe = p;
  f.driver_version = "550.54.14";
  // the checks read the GPUs and the driver from the run's machine, where the probe's answer is handed
  CHECK(run_check(f, "device.arch").empty());  // the machine still holds the driverless answer
  know_probe_gpus(f);
  SupportRow row;
  row.min_driver_linux = "525.60.13";
  row.compute_capabilities = {"5.0", "9.0"};
  f.support = {row};
  CHECK(run_check(f, "driver.version")[0].finding == "driver 550.54.14 >= 525.60.13 (NVIDIA's minimum)");
  const auto dev = run_check(f, "device.arch");
  REQUIRE(dev.size() == 2);
  CHECK(dev[0].status == CheckStatus::pass);
  CHECK(dev[1].id == "device.create");
  CHECK(gpu_usable(f));
}

TEST_CASE("no driver on Windows: the finding names nvcuda.dll and the cause and fix are Windows ones", "[doctor][checks]") {
  DoctorFacts f;
  f.host_os = Os::windows;
  f.toolkit.chosen = windows_tk();
  f.model = LoaderModel::windows_pe;
  f.major = 9;
  ProbeResult p;
  p.version = 90100;
  p.driver_loaded = false;
  p.driver_error = "nvcuda.dll: Module not found. (Windows error 126)";
  f.probe = p;
  const auto drv = run_check(f, "driver.library");
  REQUIRE(drv.size() == 1);
  CHECK(drv[0].status == CheckStatus::skip);
  CHECK_THAT(drv[0].finding, Catch::Contains("no NVIDIA driver") && Catch::Contains("nvcuda.dll"));
  CHECK_THAT(drv[0].cause, Catch::Contains("nvcuda.dll") && Catch::Contains("display driver"));
  CHECK_THAT(drv[0].fix, Catch::Contains("install the NVIDIA display driver") && !Catch::Contains("docker") && !Catch::Contains("/usr/lib"));
  // the same machine read offline (its System32 without nvcuda.dll) gives the same cause and fix
  f.offline = true;
  f.win.system32 = "C:/Windows/System32";
  f.win.files.dirs["C:/Windows/System32"] = {"kernel32.dll"};
  const auto offline = run_check(f, "driver.library");
  REQUIRE(offline.size() == 1);
  CHECK(offline[0].cause == drv[0].cause);
  CHECK(offline[0].fix == drv[0].fix);
  // and a Linux machine keeps the Linux advice
  auto linux_f = healthy_linux();
  p.driver_error = "libcuda.so.1: cannot open shared object file";
  linux_f.probe = p;
  CHECK_THAT(run_check(linux_f, "driver.library")[0].fix, Catch::Contains("docker --gpus all"));
}

TEST_CASE("native Windows uses the Windows loader model: PE imports along the DLL search order", "[doctor][checks]") {
  FakeSystem sys;
  const std::string bin = "C:/CUDA/v12.4/bin";
  sys.dirs[bin] = {"cublasLt64_12.dll", "cudnn64_9.dll", "cudnn_graph64_9.dll", "nvrtc64_120_0.dll"};
  sys.dirs["C:\\Windows\\System32"] = {"kernel32.dll", "nvcuda.dll"};
  PeImports graph;
  graph.machine = 0x8664;
  graph.imports = {"KERNEL32.dll", "cublasLt64_12.dll"};
  sys.pe[bin + "/cudnn_graph64_9.dll"] = graph;
  PeImports main = graph;
  main.imports = {"cudnn_graph64_9.dll"};
  sys.pe[bin + "/cudnn64_9.dll"] = main;
  PeImports nvcuda;
  nvcuda.file_version = "32.0.15.5222";
  sys.pe["C:\\Windows\\System32/nvcuda.dll"] = nvcuda;

  DoctorFacts f;
  f.host_os = Os::windows;
  f.toolkit.chosen = windows_tk();
  f.model = LoaderModel::windows_pe;
  f.offline = false;
  gather_files(f, sys);
  REQUIRE(f.major == 9u);
  const platform::MapEnvironment env(std::map<std::string, std::string>{{"SystemRoot", "C:\\Windows"}, {"PATH", "C:\\tools"}});
  gather_windows(f, DoctorOptions{}, env, sys);
  REQUIRE(f.win.system32);
  CHECK(*f.win.system32 == "C:\\Windows\\System32");
  gather_driver(f, env, sys);
  CHECK(f.driver_version == "552.22");

  const auto needed = run_check(f, "loader.needed");
  REQUIRE(needed.size() == 1);
  CHECK(needed[0].status == CheckStatus::pass);
  CHECK_THAT(needed[0].finding, Catch::Contains("imports of the cuDNN DLLs resolve"));
  const auto rt = run_check(f, "loader.runtime_deps");
  REQUIRE(rt.size() == 1);
  CHECK_THAT(rt[0].finding, Catch::Contains("cublasLt64_12.dll") && !Catch::Contains(".so"));
  // not offline: the real load is the probe's, not the offline "nothing is loaded"
  CHECK(run_check(f, "loader.load").empty());
  ProbeResult p;
  p.version = 90100;
  p.loads = {{"cudnn_graph64_9.dll", true, {}}, {"cudnn64_9.dll", true, {}}};
  f.probe = p;
  CHECK(run_check(f, "loader.load")[0].status == CheckStatus::pass);
}

TEST_CASE("only layer 2 starts no child process and a full run probes once", "[doctor][checks]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  FakeSystem sys;
  const auto lib = (root / "lib64").string();
  sys.dirs[lib] = {"libcudnn.so.9", "libcudnn_graph.so.9"};
  DoctorOptions o;
  o.cuda_path = root.string();
  o.only_layer = 2;
  const platform::MapEnvironment env(std::map<std::string, std::string>{});
  const auto r = run_doctor(o, env, sys);
  CHECK(sys.probes == 0);
  CHECK(sys.workloads == 0);
  for (const auto& c : r.checks) CHECK(c.layer == 2);
  CHECK(find(r.checks, "files.cudnn"));
  o.only_layer = 0;
  run_doctor(o, env, sys);
  CHECK(sys.probes == 1);
  CHECK(sys.workloads == 0);  // the scripted probe failed: no GPU, no workload
}

TEST_CASE("the doctor's probe answer is handed to the run's Machine: no second child, and device.arch reads its GPUs", "[doctor][checks][machine]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  FakeSystem sys;
  sys.dirs[(root / "lib64").string()] = {"libcudnn.so.9", "libcudnn_graph.so.9"};
  ProbeResult p;
  p.version = 90100;
  p.completed = true;
  p.driver_loaded = true;
  p.cu_init = 0;
  p.driver_api_version = 12080;
  p.devices = {{"NVIDIA H200", 9, 0}, {"NVIDIA RTX 5090", 12, 0}};
  sys.probe_result = p;
  sys.files["/proc/driver/nvidia/version"] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Thu Jan 9 2025\n";
  int driver_only_children = 0;
  DoctorOptions o;
  o.cuda_path = root.string();
  o.only_checks = {"device.arch", "driver.version"};
  o.machine = std::make_shared<Machine>("", [&](const std::string&) {
    ++driver_only_children;
    return MachineGpus{};
  });
  const auto r = run_doctor(o, platform::MapEnvironment(std::map<std::string, std::string>{}), sys);
  CHECK(sys.probes == 1);
  CHECK(driver_only_children == 0);
  CHECK(o.machine->asks() == 0);
  const auto* known = o.machine->known();
  REQUIRE(known);
  CHECK(known->driver_found);
  CHECK(known->driver_api_version == 12080);
  CHECK(known->driver_version == "570.86.15");
  REQUIRE(known->devices.size() == 2);
  CHECK(known->devices[1].name == "NVIDIA RTX 5090");
  CHECK(known->devices[1].cc.major == 12u);
  std::vector<std::string> gpus;
  for (const auto& c : r.checks)
    if (c.id == "device.arch") gpus.push_back(c.finding);
  REQUIRE(gpus.size() == 2);
  CHECK_THAT(gpus[1], Catch::Contains("GPU 1 NVIDIA RTX 5090 (compute 12.0)"));
  // the same Machine asked afterwards (install's gate, explain --here) answers from the doctor's probe
  CHECK(o.machine->gpus().devices.size() == 2);
  CHECK(driver_only_children == 0);
}

TEST_CASE("files.receipt: all listed files match, but cuDNN files the receipt does not list are beside them: a warning naming them", "[doctor][checks][stale]") {
  auto f = healthy_linux();
  f.receipt.state = ReceiptFacts::State::ok;
  f.receipt.files = 32;
  f.receipt.canonical_name = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz";
  CHECK(run_check(f, "files.receipt")[0].status == CheckStatus::pass);
  f.receipt.unlisted = {"lib64/libcudnn_engines_tensor_ir.so.9", "lib64/libcudnn_ext.so.9"};
  const auto c = run_check(f, "files.receipt");
  REQUIRE(c.size() == 1);
  CHECK(c[0].status == CheckStatus::warn);
  CHECK_THAT(c[0].finding, Catch::Contains("2 cuDNN files") && Catch::Contains("lib64/libcudnn_ext.so.9") &&
                               Catch::Contains("lib64/libcudnn_engines_tensor_ir.so.9"));
  CHECK_FALSE(c[0].fix.empty());
}
