#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/doctor/gather_stack.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

namespace {
void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "x";
}
// the stack rows of the check table over facts read from this (test) machine
std::vector<Check> stack_rows(const StackInputs& in, const platform::Environment& env) {
  DoctorFacts f;
  f.stack = read_stack_facts(in, env);
  std::vector<Check> out;
  for (const auto& row : check_table())
    if (row.needs & need_stack) row.run(f, out);
  return out;
}
const Check& find(const std::vector<Check>& checks, const std::string& id) {
  for (const auto& c : checks)
    if (c.id == id) return c;
  FAIL("no check " << id);
  return checks.front();
}
} // namespace

TEST_CASE("doctor's stack checks read a toolkit and a venv's wheels: CUDA 12 wheels beside a CUDA 13 toolkit fail", "[gather_stack]") {
  const auto root = fs::temp_directory_path() / "cudnnctl-stack-checks";
  fs::remove_all(root);
  touch(root / "cuda/lib64/libcudart.so.13");
  touch(root / "cuda/lib64/libcublasLt.so.13");
  touch(root / "cuda/lib64/libcudnn.so.9");
  const auto sp = root / "venv/lib/python3.11/site-packages";
  touch(sp / "nvidia/cublas/lib/libcublasLt.so.12");
  touch(sp / "nvidia/cudnn/lib/libcudnn.so.9");
  fs::create_directories(sp / "nvidia_cudnn_cu12-9.1.0.70.dist-info");
  platform::MapEnvironment env({{"VIRTUAL_ENV", (root / "venv").string()}, {"CUDNN_PATH", (root / "cuda").string()}});
  StackInputs in;
  in.toolkit_lib_dir = (root / "cuda/lib64").string();
  in.toolkit_cuda_major = 13;
  in.loader_cudnn_dir = (root / "cuda/lib64").string();
  in.root = (root / "sysroot").string();

  const auto libs = gather_cuda_stack(in, env);
  CHECK(libs.size() == 5);
  const auto checks = stack_rows(in, env);
  const auto& major = find(checks, "stack.cuda_major");
  CHECK(major.status == CheckStatus::fail);
  CHECK(major.finding.find("libcudnn.so.9 (pip wheel in") != std::string::npos);
  CHECK(major.finding.find("nvidia_cudnn_cu12-9.1.0.70.dist-info") != std::string::npos);
  CHECK(!major.fix.empty());
  CHECK(find(checks, "files.cudnn_path").status == CheckStatus::pass);  // CUDNN_PATH/lib64 is the loader's folder

  fs::remove_all(sp);
  CHECK(find(stack_rows(in, env), "stack.cuda_major").status == CheckStatus::pass);
  fs::remove_all(root);
}

TEST_CASE("doctor's stack rows judge facts in memory: nothing gathered, nothing said", "[gather_stack]") {
  DoctorFacts f;
  std::vector<Check> out;
  for (const auto& row : check_table())
    if (row.needs & need_stack) row.run(f, out);
  CHECK(out.empty());  // a Windows or offline toolkit: the stack is not this machine's

  f.stack.gathered = true;
  f.stack.cudnn_path = "/opt/cudnn";
  f.stack.loader_cudnn_dir = "/usr/lib/x86_64-linux-gnu";
  f.stack.libraries = {{"/usr/local/cuda/lib64/libcudart.so.13", "toolkit", 13}, {"/venv/nvidia/cublas/lib/libcublasLt.so.12", "pip wheel", 12}};
  f.stack.libcuda = "/usr/local/cuda-13.0/compat/libcuda.so.580.65.06";
  f.stack.host_driver = "590.10";
  f.stack.wsl.wsl = true;
  f.stack.wsl.lib_dir = true;
  f.stack.wsl.libcuda_is_copy = true;
  for (const auto& row : check_table())
    if (row.needs & need_stack) row.run(f, out);
  CHECK(find(out, "files.cudnn_path").status == CheckStatus::warn);
  CHECK(find(out, "files.cudnn_path").layer == 2);
  CHECK(find(out, "stack.cuda_major").status == CheckStatus::fail);
  CHECK(find(out, "stack.cuda_major").layer == 3);
  CHECK(find(out, "driver.compat").status != CheckStatus::pass);
  CHECK(find(out, "driver.wsl").layer == 4);

  f.stack.same_as_loader_dir = {"/opt/cudnn/lib"};  // CUDNN_PATH/lib is the loader's folder, links resolved
  out.clear();
  for (const auto& row : check_table())
    if (row.needs & need_stack) row.run(f, out);
  CHECK(find(out, "files.cudnn_path").status == CheckStatus::pass);
}

TEST_CASE("doctor's stack facts take the host driver through the doctor's system, read once", "[gather_stack]") {
  testing::FakeSystem sys;
  DoctorFacts f;
  Toolkit t;
  t.root = "/nonexistent-cudnnctl-toolkit";
  t.version = "13.0";
  t.lib_dir = "lib64";
  f.toolkit.chosen = t;
  f.runtime_dir = t.root + "/lib64";
  f.driver_version_file = "/fake/proc/driver/nvidia/version";
  platform::MapEnvironment env({});
  // layer 4 did not run: the stack reads the file itself, through the seam
  sys.files[f.driver_version_file] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n";
  gather_stack(f, env, sys);
  CHECK(f.stack.gathered);
  CHECK(f.stack.host_driver == "550.54.14");
  // layer 4 read it already: the stack takes that, the file is not asked for again
  sys.files.clear();
  f.driver_version = "560.28.03";
  gather_stack(f, env, sys);
  CHECK(f.stack.host_driver == "560.28.03");
}
