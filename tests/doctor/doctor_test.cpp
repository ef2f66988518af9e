#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/gpu/status_names.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const fs::path fakes = CUDNNCTL_FAKES_DIR;
const char* const k_subs[] = {"graph", "ops", "cnn", "adv", "engines_precompiled", "engines_runtime_compiled", "heuristic"};

// A CUDA 12.4 toolkit tree holding the fake cuDNN 9.1.0 (and the headers to say so).
fs::path fake_setup(const TempDir& tmp) {
  const auto root = linux_toolkit(tmp.path(), "12.4");
  const auto lib = root / "targets/x86_64-linux/lib";
  fs::copy_file(fakes / "libcudnn.so.9", lib / "libcudnn.so.9");
  for (const auto* s : k_subs) fs::copy_file(fakes / (std::string("libcudnn_") + s + ".so.9"), lib / (std::string("libcudnn_") + s + ".so.9"));
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  put(root / "driver-version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
  return root;
}

DoctorOptions options(const fs::path& root) {
  DoctorOptions o;
  o.cuda_path = root.string();
  o.self_exe = CUDNNCTL_BINARY;
  o.driver_library = (fakes / "libcuda.so.1").string();
  o.driver_version_file = (root / "driver-version").string();
  return o;
}

const Check* find(const DoctorReport& r, const std::string& id) {
  for (const auto& c : r.checks)
    if (c.id == id) return &c;
  return nullptr;
}

const platform::MapEnvironment quiet_env(std::map<std::string, std::string>{});

// The fake toolkit's library folder first on the loader path, as `cudnnctl path` would set it.
platform::MapEnvironment env_for(const fs::path& root) {
  return platform::MapEnvironment(std::map<std::string, std::string>{
      {"LD_LIBRARY_PATH", fs::weakly_canonical(root / "lib64").string()}});
}

} // namespace

TEST_CASE("a healthy fake set-up passes every layer", "[doctor]") {
  TempDir tmp;
  const auto root = fake_setup(tmp);
  const auto r = run_doctor(options(root), env_for(root));
  for (const auto& c : r.checks) {
    INFO(c.id << ": " << c.finding);
    CHECK(c.status != CheckStatus::fail);
  }
  for (const auto* id : {"toolkit.found", "files.cudnn", "files.complete", "files.versions", "loader.needed", "loader.load",
                         "loader.version_checks", "driver.library", "driver.version", "device.arch", "device.create"}) {
    INFO(id);
    const auto* c = find(r, id);
    REQUIRE(c);
    CHECK(c->status == CheckStatus::pass);
  }
  CHECK_THAT(find(r, "loader.load")->finding, Catch::Contains("90100"));
  CHECK_THAT(find(r, "driver.version")->finding, Catch::Contains("525.60.13"));  // NVIDIA's minimum for 9.1 cuda12
  CHECK(find(r, "workload.correctness")->status == CheckStatus::pass);
  CHECK(find(r, "workload.conv")->status == CheckStatus::pass);
  CHECK_THAT(find(r, "workload.conv")->finding, Catch::Contains("8 layer runs on NVIDIA Fake GPU"));
  CHECK(doctor_exit_code(r) == ExitCode::ok);
  auto o = options(root);
  o.no_gpu = true;
  CHECK(doctor_exit_code(run_doctor(o, env_for(root))) == ExitCode::gpu_layers_skipped);
}

TEST_CASE("failure signatures: each named with its cause and fix", "[doctor]") {
  SECTION("a missing sub-library") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    fs::remove(root / "targets/x86_64-linux/lib/libcudnn_ops.so.9");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "files.complete")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "files.complete")->finding, Catch::Contains("libcudnn_ops.so.9"));
    CHECK(find(r, "loader.version_checks")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "loader.version_checks")->finding, Catch::Contains("SUBLIBRARY_UNAVAILABLE"));
    CHECK(doctor_exit_code(r) == ExitCode::problems_found);
  }
  SECTION("no libcudnn_graph: cuDNN aborts the process at its first call") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    fs::remove(root / "targets/x86_64-linux/lib/libcudnn_graph.so.9");
    const auto r = run_doctor(options(root), env_for(root));
    const auto* load = find(r, "loader.load");
    REQUIRE(load);
    CHECK(load->status == CheckStatus::fail);
    CHECK_THAT(load->finding, Catch::Contains("aborted") && Catch::Contains("Invalid handle"));
    CHECK_FALSE(load->fix.empty());
  }
  SECTION("mixed versions in one folder") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    const auto lib = root / "targets/x86_64-linux/lib";
    fs::rename(lib / "libcudnn_ops.so.9", lib / "libcudnn_ops.so.9.1.0");
    fs::create_symlink("libcudnn_ops.so.9.1.0", lib / "libcudnn_ops.so.9");
    fs::rename(lib / "libcudnn_cnn.so.9", lib / "libcudnn_cnn.so.9.19.0");
    fs::create_symlink("libcudnn_cnn.so.9.19.0", lib / "libcudnn_cnn.so.9");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "files.versions")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "files.versions")->finding, Catch::Contains("9.1.0") && Catch::Contains("9.19.0"));
  }
  SECTION("a missing dependency of a sub-library (libz in real life)") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    const auto lib = root / "targets/x86_64-linux/lib";
    fs::remove(lib / "libcudnn_graph.so.9");
    fs::copy_file(fakes / "libcudnn_graph_needs_z.so.9", lib / "libcudnn_graph.so.9");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "loader.needed")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "loader.needed")->finding, Catch::Contains("libcudnn_graph.so.9 needs libcudnnctl_fakez.so.1"));
    CHECK(find(r, "loader.load")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "loader.load")->finding, Catch::Contains("libcudnnctl_fakez.so.1"));  // the loader's own words
    // with the dependency beside it, all is well again
    fs::copy_file(fakes / "libcudnnctl_fakez.so.1", lib / "libcudnnctl_fakez.so.1");
    const auto fixed = run_doctor(options(root), env_for(root));
    CHECK(find(fixed, "loader.needed")->status == CheckStatus::pass);
    CHECK(find(fixed, "loader.load")->status == CheckStatus::pass);
  }
  SECTION("the toolkit's stub library loaded as the driver") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    ScopedEnv env;
    env.set("FAKE_CU_INIT", "34");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "driver.library")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "driver.library")->finding, Catch::Contains("stub"));
    if (fs::exists("/usr/local/cuda/lib64/stubs/libcuda.so")) {  // and the real stub of this image says the same
      auto o = options(root);
      o.driver_library = "/usr/local/cuda/lib64/stubs/libcuda.so";
      ::unsetenv("FAKE_CU_INIT");
      const auto real = run_doctor(o, env_for(root));
      CHECK_THAT(find(real, "driver.library")->finding, Catch::Contains("CUDA_ERROR_STUB_LIBRARY"));
    }
  }
  SECTION("no driver at all: the GPU layers are skipped, not failed") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    auto o = options(root);
    o.driver_library = (tmp.path() / "no-such-libcuda.so.1").string();
    const auto r = run_doctor(o, env_for(root));
    CHECK(find(r, "driver.library")->status == CheckStatus::skip);
    CHECK_THAT(find(r, "driver.library")->finding, Catch::Contains("no NVIDIA driver"));
    CHECK(doctor_exit_code(r) == ExitCode::gpu_layers_skipped);
  }
  SECTION("a driver older than NVIDIA's minimum") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    put(root / "driver-version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.57.02  Tue Jul 13 16:14:05 UTC 2021\n");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "driver.version")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "driver.version")->finding, Catch::Contains("470.57.02") && Catch::Contains("525.60.13"));
    CHECK_THAT(find(r, "driver.version")->fix, Catch::Contains("update the NVIDIA driver"));
  }
  SECTION("cudnnCreate returns NOT_INITIALIZED") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    ScopedEnv env;
    env.set("FAKE_CREATE_STATUS", "1001");
    env.set("FAKE_LAST_ERROR", "cudaGetDeviceCount(&count) != cudaSuccess");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "device.create")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "device.create")->finding, Catch::Contains("CUDNN_STATUS_NOT_INITIALIZED") && Catch::Contains("cudaGetDeviceCount"));
    CHECK_THAT(find(r, "device.create")->cause, Catch::Contains("out of memory"));
  }
  SECTION("a GPU newer than this cuDNN knows (ARCH_MISMATCH)") {
    TempDir tmp;
    const auto root = fake_setup(tmp);
    ScopedEnv env;
    env.set("FAKE_CC_MAJOR", "12");
    env.set("FAKE_MAX_DEVICE", "900");
    env.set("FAKE_CREATE_STATUS", "3007");
    const auto r = run_doctor(options(root), env_for(root));
    CHECK(find(r, "device.arch")->status == CheckStatus::fail);
    CHECK_THAT(find(r, "device.arch")->finding, Catch::Contains("compute 12.0") && Catch::Contains("newer"));
    CHECK_THAT(find(r, "device.create")->finding, Catch::Contains("ARCH_MISMATCH"));
  }
}

TEST_CASE("framework copies of cuDNN (pip wheels, torch/lib) are reported once each, by bundles.found", "[doctor]") {
  TempDir tmp;
  const auto root = fake_setup(tmp);
  const auto site = tmp.path() / "venv/lib/python3.11/site-packages";
  fs::create_directories(site / "nvidia_cudnn_cu12-9.1.0.70.dist-info");  // a wheel's record with no library folder: nothing to load
  put(site / "torch/lib/libcudnn.so.9", "torch's copy");
  put(tmp.path() / "conda/Lib/site-packages/torch/lib/cudnn64_9.dll", "the Windows layout of a conda env");
  // an environment that is not active: the doctor's wider look at this machine's Python environments sees it
  put(tmp.path() / "home/miniconda3/envs/old/lib/python3.10/site-packages/torch/lib/libcudnn.so.8", "an old env's copy");
  std::map<std::string, std::string> vars{{"LD_LIBRARY_PATH", fs::weakly_canonical(root / "lib64").string()},
                                          {"VIRTUAL_ENV", (tmp.path() / "venv").string()},
                                          {"CONDA_PREFIX", (tmp.path() / "conda").string()},
                                          {"HOME", (tmp.path() / "home").string()}};
  const auto r = run_doctor(options(root), platform::MapEnvironment(vars));
  CHECK_FALSE(find(r, "files.frameworks"));  // folded into bundles.found: one scanner, one report
  const auto* found = find(r, "bundles.found");
  REQUIRE(found);
  CHECK_THAT(found->finding, Catch::StartsWith("3 framework-bundled cuDNN folder(s)") &&
                                 Catch::Contains("venv/lib/python3.11/site-packages/torch/lib") &&
                                 Catch::Contains("conda/Lib/site-packages/torch/lib") &&
                                 Catch::Contains("home/miniconda3/envs/old/lib/python3.10/site-packages/torch/lib") &&
                                 Catch::Contains("searched " + (tmp.path() / "venv/lib").string()) &&
                                 Catch::Contains((tmp.path() / "home/miniconda3/envs/old/lib/python3.10/site-packages").string()));
  // each copy once, though the venv's is below both $VIRTUAL_ENV/lib and its site-packages
  const auto& text = found->finding;
  const std::string venv_copy = "venv/lib/python3.11/site-packages/torch/lib'";
  CHECK(text.find(venv_copy) == text.rfind(venv_copy));
  // the other-major copy is judged like any bundle
  CHECK(std::any_of(r.checks.begin(), r.checks.end(), [](const Check& c) {
    return c.id == "bundles.versions" && c.status == CheckStatus::warn && c.finding.find("envs/old") != std::string::npos;
  }));

  // only the active environments
  vars.erase("HOME");
  const auto once = run_doctor(options(root), platform::MapEnvironment(vars));
  REQUIRE(find(once, "bundles.found"));
  CHECK_THAT(find(once, "bundles.found")->finding, Catch::StartsWith("2 framework-bundled cuDNN folder(s)") && !Catch::Contains("envs/old"));
  // the old id is gone from the table: --check names it as unknown
  CHECK(std::none_of(check_table().begin(), check_table().end(), [](const CheckSpec& s) { return std::string(s.id) == "files.frameworks"; }));
}

#ifdef CUDNNCTL_TEST_DLLS
TEST_CASE("Windows toolkits, read from Linux: damaged, 32-bit and missing DLLs, zlibwapi for cuDNN 8", "[doctor]") {
  TempDir tmp;
  const fs::path dlls = CUDNNCTL_TEST_DLLS;
  const auto root = windows_toolkit(tmp.path(), "12.4", false);
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  fs::copy_file(dlls / "cudnn64_9.dll", root / "bin/cudnn64_9.dll");  // imports cudnn_graph64_9.dll
  DoctorOptions o;
  o.cuda_path = root.string();
  o.self_exe = CUDNNCTL_BINARY;
  const auto missing = run_doctor(o, quiet_env);
  REQUIRE(find(missing, "files.dlls"));
  CHECK(find(missing, "files.dlls")->status == CheckStatus::fail);
  CHECK_THAT(find(missing, "files.dlls")->finding, Catch::Contains("imports cudnn_graph64_9.dll, which is missing"));
  // read from Linux, a Windows toolkit is diagnosed offline: nothing loaded, the imports resolved from the files
  CHECK(missing.offline);
  CHECK(find(missing, "loader.load")->status == CheckStatus::skip);
  CHECK_THAT(find(missing, "loader.needed")->finding, Catch::Contains("cudnn64_9.dll needs cudnn_graph64_9.dll"));

  fs::copy_file(dlls / "cudnn_graph64_9.dll", root / "bin/cudnn_graph64_9.dll");
  CHECK(find(run_doctor(o, quiet_env), "files.dlls")->status == CheckStatus::pass);

  {  // the same DLL marked ARM64 (the PE header's machine field): in an x64 toolkit it is named as such
    const auto arm = root / "bin/cudnn_adv64_9.dll";
    fs::copy_file(dlls / "cudnn_graph64_9.dll", arm);
    std::fstream f(arm, std::ios::in | std::ios::out | std::ios::binary);
    char at[4];
    f.seekg(0x3c);
    f.read(at, 4);
    const auto pe = static_cast<std::streamoff>(static_cast<unsigned char>(at[0]) | static_cast<unsigned char>(at[1]) << 8);
    f.seekp(pe + 4);
    f.write("\x64\xAA", 2);
  }
  const auto arm_report = run_doctor(o, quiet_env);
  const auto* arm_check = find(arm_report, "files.dlls");
  REQUIRE(arm_check);
  CHECK(arm_check->status == CheckStatus::fail);
  CHECK_THAT(arm_check->finding, Catch::Contains("cudnn_adv64_9.dll is an arm64 DLL in an x64 toolkit"));
  fs::remove(root / "bin/cudnn_adv64_9.dll");

  put(root / "bin/cudnn_ops64_9.dll", "");  // emptied by antivirus
  CHECK_THAT(find(run_doctor(o, quiet_env), "files.dlls")->finding, Catch::Contains("cudnn_ops64_9.dll is not a readable DLL"));

  const auto v8 = windows_toolkit(tmp.path(), "11.8", false);
  put(v8 / "include/cudnn_version.h", "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
  fs::copy_file(dlls / "cudnn_graph64_9.dll", v8 / "bin/cudnn64_8.dll");
  DoctorOptions o8 = o;
  o8.cuda_path = v8.string();
  CHECK_THAT(find(run_doctor(o8, quiet_env), "files.dlls")->finding, Catch::Contains("zlibwapi.dll is missing"));
}
#endif

TEST_CASE("the toolkit's stubs folder on LD_LIBRARY_PATH is named as a fault", "[doctor]") {
  TempDir tmp;
  const auto root = fake_setup(tmp);
  put(root / "lib64/stubs/libcuda.so", "stub");
  const auto stubs = fs::weakly_canonical(root / "lib64").string() + "/stubs";
  platform::MapEnvironment env(std::map<std::string, std::string>{
      {"LD_LIBRARY_PATH", fs::weakly_canonical(root / "lib64").string() + ":" + stubs}});
  auto o = options(root);
  o.driver_library = "libcudnnctl-no-such-driver.so.1";
  const auto r = run_doctor(o, env);
  const auto* c = find(r, "driver.stubs_on_path");
  REQUIRE(c);
  CHECK(c->status == CheckStatus::warn);
  CHECK_THAT(c->finding, Catch::Contains(stubs));
  CHECK_THAT(c->fix, Catch::Contains("remove the stubs folder from LD_LIBRARY_PATH"));
  CHECK_THAT(find(r, "driver.library")->finding, Catch::Contains("no NVIDIA driver"));
  CHECK_FALSE(find(run_doctor(o, env_for(root)), "driver.stubs_on_path"));
}

TEST_CASE("offline (--offline) on a Linux toolkit: nothing loaded, no driver touched", "[doctor]") {
  TempDir tmp;
  const auto root = fake_setup(tmp);
  auto o = options(root);
  o.offline = true;
  const auto r = run_doctor(o, env_for(root));
  CHECK(find(r, "loader.needed")->status == CheckStatus::pass);
  CHECK(find(r, "loader.load")->status == CheckStatus::skip);
  CHECK_FALSE(find(r, "loader.version_checks"));
  CHECK(find(r, "driver.skipped")->status == CheckStatus::skip);
  CHECK(doctor_exit_code(r) == ExitCode::gpu_layers_skipped);
}

TEST_CASE("status codes read by the loaded major", "[doctor]") {
  CHECK(cudnn_status_name(1001, 9) == "CUDNN_STATUS_NOT_INITIALIZED");
  CHECK(cudnn_status_name(1, 8) == "CUDNN_STATUS_NOT_INITIALIZED");
  CHECK(cudnn_status_name(6, 8) == "CUDNN_STATUS_ARCH_MISMATCH");
  CHECK(cudnn_status_name(3007, 9) == "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH");
  CHECK(cu_result_name(34) == "CUDA_ERROR_STUB_LIBRARY");
  CHECK(parse_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22") == "550.54.14");
  CHECK(parse_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build") == "570.86.15");
  CHECK(parse_driver_version("").empty());
}

TEST_CASE("this image's real toolkit: layers 1-3 pass, layer 4 says there is no driver", "[doctor][real]") {
  if (!fs::exists("/usr/local/cuda/include/cudnn_version.h")) CUDNNCTL_SKIP("no cuDNN in /usr/local/cuda on this machine");
  DoctorOptions o;
  o.cuda_path = "/usr/local/cuda";
  o.self_exe = CUDNNCTL_BINARY;
  o.driver_library = "libcudnnctl-no-such-driver.so.1";  // no driver on this image; be sure even if one appears
  const auto r = run_doctor(o, quiet_env);
  for (const auto& c : r.checks) {
    INFO(c.id << ": " << c.finding);
    if (c.layer <= 3) CHECK(c.status != CheckStatus::fail);
  }
  CHECK_THAT(find(r, "files.cudnn")->finding, Catch::Contains("9.19.0"));
  CHECK_THAT(find(r, "loader.load")->finding, Catch::Contains("91900"));
  CHECK_THAT(find(r, "driver.library")->finding, Catch::Contains("no NVIDIA driver"));
  CHECK(doctor_exit_code(r) == ExitCode::gpu_layers_skipped);
  const auto j = doctor_json(r);
  CHECK(j["exit_code"] == 11);  // the envelope (schema cudnnctl.doctor/2, ok) is the app's: cli.json_contract holds it
}
