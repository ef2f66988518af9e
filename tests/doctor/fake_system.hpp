#pragma once
// A DoctorSystem made of maps: folders, files, libraries, and scripted probe/workload results. What the
// doctor asks for is counted, so tests see that --layer 2 starts no child.
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/system.hpp"

namespace cudnnctl::testing {

/// The table's row for `id` run alone on `f`: what it reports. No such row fails the test.
inline Checks run_check(const DoctorFacts& f, std::string_view id) {
  const auto* row = find_check(id);
  REQUIRE(row);
  REQUIRE(row->id == id);
  Checks out;
  row->run(f, out);
  return out;
}

class FakeSystem final : public DoctorSystem {
public:
  std::map<std::string, std::vector<std::string>> dirs;
  std::map<std::string, std::string> files;
  std::map<std::string, ElfDynamicInfo> elf;
  std::map<std::string, PeImports> pe;
  std::map<std::string, Result<GpuCode>> gpu_code;  // absent: a library without fat binaries
  std::string ld_cache;
  std::optional<ProbeResult> probe_result;
  std::optional<WorkloadResult> workload_result;
  int probes = 0, workloads = 0, ld_cache_reads = 0;
  std::string ld_problem;  // what ld_cache_problem() says once the cache was asked for
  std::map<std::string, std::vector<std::string>> python_site_lists;  // interpreter -> the sites it reports (absent: it cannot run)
  std::vector<std::string> pythons_asked;
  std::mutex pythons_asked_mutex;
  BundleScan bundle_scan;                     // what scan_bundles returns
  std::vector<std::string> bundle_sites_asked;  // the sites the last scan was given
  std::string bundle_state_root_asked;
  int bundle_scans = 0;

  std::vector<std::string> list_dir(const std::string& dir) override {
    const auto it = dirs.find(dir);
    return it == dirs.end() ? std::vector<std::string>{} : it->second;
  }
  bool exists(const std::string& path) override { return files.count(path) || dirs.count(path) || elf.count(path) || pe.count(path); }
  bool is_dir(const std::string& path) override { return dirs.count(path) > 0; }
  std::optional<std::string> read_text(const std::string& path, std::size_t) override {
    const auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional(it->second);
  }
  Result<ElfDynamicInfo> read_elf(const std::string& path) override {
    if (const auto it = elf.find(path); it != elf.end()) return it->second;
    return fail(ErrorCode::input_invalid, path + ": not an ELF file");
  }
  Result<PeImports> read_pe(const std::string& path) override {
    if (const auto it = pe.find(path); it != pe.end()) return it->second;
    return fail(ErrorCode::input_invalid, path + ": not a PE file");
  }
  Result<GpuCode> read_gpu_code(const std::string& path) override {
    if (const auto it = gpu_code.find(path); it != gpu_code.end()) return it->second;
    return GpuCode{};
  }
  const std::string& ld_cache_text() override {
    ++ld_cache_reads;
    return ld_cache;
  }
  std::string ld_cache_problem() override { return ld_cache_reads ? ld_problem : std::string(); }
  Result<ProbeResult> probe(const ProbeRequest&, int) override {
    ++probes;
    if (!probe_result) return fail(ErrorCode::internal, "no probe scripted");
    return *probe_result;
  }
  Result<WorkloadResult> workload(const WorkloadRequest&, int) override {
    ++workloads;
    if (!workload_result) return fail(ErrorCode::internal, "no workload scripted");
    return *workload_result;
  }
  Result<std::vector<std::string>> python_sites(const std::string& exe) override {
    {
      const std::lock_guard lock(pythons_asked_mutex);  // the doctor asks distinct interpreters at once
      pythons_asked.push_back(exe);
    }
    if (const auto it = python_site_lists.find(exe); it != python_site_lists.end()) return it->second;
    return fail(ErrorCode::internal, exe + ": not found");
  }
  BundleScan scan_bundles(const std::vector<std::string>& sites, const std::string& state_root) override {
    ++bundle_scans;
    bundle_sites_asked = sites;
    bundle_state_root_asked = state_root;
    return bundle_scan;
  }
};

} // namespace cudnnctl::testing
