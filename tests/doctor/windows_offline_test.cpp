// The doctor on a Windows toolkit read from files (a disk mounted here): mingw-built DLLs with version
// resources and real imports stand in for NVIDIA's; one thing broken per case.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_cli.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/doctor/windows_offline.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("nvcuda.dll file versions read as NVIDIA's driver numbers", "[windows_offline]") {
  CHECK(windows_driver_version("32.0.15.5222") == "552.22");
  CHECK(windows_driver_version("31.0.15.3623") == "536.23");
  CHECK(windows_driver_version("27.21.14.5671") == "456.71");
  CHECK(windows_driver_version("30.0.14.7141") == "471.41");
  CHECK(windows_driver_version("9.1.0").empty());
  CHECK(windows_driver_version("").empty());
}

#ifdef CUDNNCTL_TEST_DLLS
namespace {

const fs::path dlls = CUDNNCTL_TEST_DLLS;
const platform::MapEnvironment no_env(std::map<std::string, std::string>{});

// A Windows disk as seen from here: C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4 holding
// cuDNN 9.1.0.70, C:\Windows\System32 with what the DLLs import and the driver, C:\tools\old-cudnn\bin
// with an older cuDNN 9.0 copy.
struct Disk {
  TempDir tmp;
  fs::path c, toolkit, bin, system32, old;
  Disk() {
    c = tmp.path() / "disk-c";
    toolkit = c / "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4";
    bin = toolkit / "bin";
    put(toolkit / "version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})");
    put(toolkit / "include/cuda.h", "h");
    put(toolkit / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
    put(toolkit / "lib/x64/cudart.lib", "lib");
    put(bin / "nvcc.exe", "nvcc");
    for (const auto* d : {"cudnn64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll", "cudnn_adv64_9.dll", "cudnn_heuristic64_9.dll"})
      fs::copy_file(dlls / d, bin / d);
    for (const auto* d : {"cudnn_cnn64_9.dll", "cudnn_engines_precompiled64_9.dll", "cudnn_engines_runtime_compiled64_9.dll"})
      fs::copy_file(dlls / "cudnn_ops64_9.dll", bin / d);
    put(bin / "cublasLt64_12.dll", "cublasLt");
    put(bin / "nvrtc64_120_0.dll", "nvrtc");
    system32 = c / "Windows/System32";
    fs::create_directories(system32);
    fs::copy_file(dlls / "cudnn_graph64_9.dll", system32 / "kernel32.dll");  // the case differs from the import, as on Windows
    fs::copy_file(dlls / "cudnn_graph64_9.dll", system32 / "msvcrt.dll");
    fs::copy_file(dlls / "sys/nvcuda.dll", system32 / "nvcuda.dll");
    old = c / "tools/old-cudnn/bin";
    fs::create_directories(old);
    fs::copy_file(dlls / "old/cudnn64_9.dll", old / "cudnn64_9.dll");
  }
  std::string path(bool old_first = false) const {
    const std::string tk = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin";
    return old_first ? "C:\\tools\\old-cudnn\\bin;" + tk + ";%SystemRoot%\\system32"
                     : tk + ";%SystemRoot%\\system32;C:\\tools\\old-cudnn\\bin";
  }
  DoctorOptions options() const {
    DoctorOptions o;
    o.cuda_path = toolkit.string();
    o.windows_path = path();
    return o;
  }
};

const Check* find_offline_check(const DoctorReport& r, const std::string& id) {
  for (const auto& c : r.checks)
    if (c.id == id) return &c;
  return nullptr;
}

} // namespace

TEST_CASE("offline Windows: a healthy toolkit on a mounted disk", "[windows_offline]") {
  Disk d;
  const auto r = run_doctor(d.options(), no_env);
  for (const auto& c : r.checks) {
    INFO(c.id << ": " << c.finding);
    CHECK(c.status != CheckStatus::fail);
  }
  CHECK(r.offline);
  REQUIRE(find_offline_check(r, "files.versions"));
  CHECK(find_offline_check(r, "files.versions")->status == CheckStatus::pass);
  CHECK_THAT(find_offline_check(r, "files.versions")->finding, Catch::Contains("9.1.0.70") && Catch::Contains("cudnn_heuristic64_9.dll carry no version resource"));
  CHECK(find_offline_check(r, "files.dlls")->status == CheckStatus::pass);
  CHECK(find_offline_check(r, "loader.needed")->status == CheckStatus::pass);
  CHECK_THAT(find_offline_check(r, "loader.needed")->finding, Catch::Contains("System32"));
  CHECK(find_offline_check(r, "loader.runtime_deps")->status == CheckStatus::pass);
  CHECK_THAT(find_offline_check(r, "loader.runtime_deps")->finding, Catch::Contains("cublasLt64_12.dll") && Catch::Contains("nvrtc64_120_0.dll"));
  CHECK(find_offline_check(r, "loader.load")->status == CheckStatus::skip);
  CHECK_THAT(find_offline_check(r, "driver.library")->finding, Catch::Contains("driver 552.22"));
  CHECK(find_offline_check(r, "driver.version")->status == CheckStatus::pass);
  CHECK(find_offline_check(r, "files.search_path")->status == CheckStatus::pass);
  CHECK_THAT(find_offline_check(r, "files.search_path")->finding, Catch::Contains("9.1.0.70"));
  // the older 9.0 copy comes after the toolkit on PATH: drawn, not loaded
  REQUIRE(r.search);
  bool saw_old = false;
  for (const auto& c : r.search->copies)
    if (c.version == "9.0.0.312") saw_old = !c.wins;
  CHECK(saw_old);
  CHECK(doctor_exit_code(r) == ExitCode::gpu_layers_skipped);
  bool mapped = false;
  for (const auto& n : r.notes) mapped = mapped || n.find("drive C: is") != std::string::npos;
  CHECK(mapped);
}

TEST_CASE("offline Windows: one thing broken per case", "[windows_offline]") {
  Disk d;
  SECTION("a sub-DLL that another imports is missing") {
    fs::remove(d.bin / "cudnn_ops64_9.dll");
    const auto r = run_doctor(d.options(), no_env);
    REQUIRE(find_offline_check(r, "loader.needed"));
    CHECK(find_offline_check(r, "loader.needed")->status == CheckStatus::fail);
    CHECK_THAT(find_offline_check(r, "loader.needed")->finding, Catch::Contains("cudnn_adv64_9.dll needs cudnn_ops64_9.dll"));
    CHECK_THAT(find_offline_check(r, "loader.needed")->cause, Catch::Contains("error 126"));
    CHECK(find_offline_check(r, "files.complete")->status == CheckStatus::fail);
    CHECK(doctor_exit_code(r) == ExitCode::problems_found);
  }
  SECTION("a main DLL of another release") {
    fs::copy_file(dlls / "old/cudnn64_9.dll", d.bin / "cudnn64_9.dll", fs::copy_options::overwrite_existing);
    const auto r = run_doctor(d.options(), no_env);
    CHECK(find_offline_check(r, "files.versions")->status == CheckStatus::fail);
    CHECK_THAT(find_offline_check(r, "files.versions")->finding, Catch::Contains("9.0.0: cudnn64_9.dll 9.0.0.312") && Catch::Contains("9.1.0: "));
  }
  SECTION("the header says another release than the DLLs") {
    put(d.toolkit / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 2\n#define CUDNN_PATCHLEVEL 0\n");
    const auto r = run_doctor(d.options(), no_env);
    CHECK(find_offline_check(r, "files.versions")->status == CheckStatus::fail);
    CHECK_THAT(find_offline_check(r, "files.versions")->finding, Catch::Contains("cudnn_version.h says 9.2.0"));
  }
  SECTION("an older copy comes first on PATH") {
    auto o = d.options();
    o.windows_path = d.path(true);
    const auto r = run_doctor(o, no_env);
    const auto* c = find_offline_check(r, "files.search_path");
    REQUIRE(c);
    CHECK(c->status == CheckStatus::fail);
    CHECK_THAT(c->finding, Catch::Contains("C:\\tools\\old-cudnn\\bin") && Catch::Contains("9.0.0.312"));
    const auto html = doctor_html(r);
    CHECK_THAT(html, Catch::Contains("copy winner shadowing") && Catch::Contains("shadows the installed copy"));
  }
  SECTION("cuDNN 8 DLLs left beside cuDNN 9") {
    fs::copy_file(dlls / "v8/cudnn64_8.dll", d.bin / "cudnn64_8.dll");
    fs::copy_file(dlls / "v8/cudnn_ops_infer64_8.dll", d.bin / "cudnn_ops_infer64_8.dll");
    const auto r = run_doctor(d.options(), no_env);
    const auto* c = find_offline_check(r, "files.stale");
    REQUIRE(c);
    CHECK(c->status == CheckStatus::warn);
    CHECK_THAT(c->finding, Catch::Contains("cudnn64_8.dll") && Catch::Contains("cudnn_ops_infer64_8.dll"));
  }
  SECTION("a DLL needs the Visual C++ runtime, which System32 lacks") {
    fs::copy_file(dlls / "vc/cudnn_cnn64_9.dll", d.bin / "cudnn_cnn64_9.dll", fs::copy_options::overwrite_existing);
    const auto r = run_doctor(d.options(), no_env);
    const auto* c = find_offline_check(r, "loader.needed");
    REQUIRE(c);
    CHECK(c->status == CheckStatus::fail);
    CHECK_THAT(c->finding, Catch::Contains("vcruntime140.dll"));
    CHECK_THAT(c->fix, Catch::Contains("Visual C++ Redistributable"));
    fs::copy_file(dlls / "vc/vcruntime140.dll", d.system32 / "VCRUNTIME140.dll");
    CHECK(find_offline_check(run_doctor(d.options(), no_env), "loader.needed")->status == CheckStatus::pass);
  }
  SECTION("cuBLASLt of the CUDA major is nowhere") {
    fs::remove(d.bin / "cublasLt64_12.dll");
    const auto r = run_doctor(d.options(), no_env);
    CHECK(find_offline_check(r, "loader.runtime_deps")->status == CheckStatus::warn);
    CHECK_THAT(find_offline_check(r, "loader.runtime_deps")->finding, Catch::Contains("cublasLt64_12.dll"));
  }
  SECTION("no NVIDIA driver on that machine") {
    fs::remove(d.system32 / "nvcuda.dll");
    const auto r = run_doctor(d.options(), no_env);
    CHECK(find_offline_check(r, "driver.library")->status == CheckStatus::skip);
    CHECK_THAT(find_offline_check(r, "driver.library")->finding, Catch::Contains("no nvcuda.dll"));
  }
  SECTION("without PATH or a drive mapping: System32 and PATH are not checked, and it says so") {
    DoctorOptions o;
    o.cuda_path = d.toolkit.string();
    const auto r = run_doctor(o, no_env);
    CHECK(find_offline_check(r, "files.search_path")->status == CheckStatus::skip);
    CHECK_THAT(find_offline_check(r, "loader.needed")->finding, Catch::Contains("not checked without --system32") && Catch::Contains("KERNEL32.dll"));
    CHECK(find_offline_check(r, "driver.library")->status == CheckStatus::skip);
    o.system32 = d.system32.string();
    CHECK(find_offline_check(run_doctor(o, no_env), "driver.library")->status == CheckStatus::pass);
  }
  SECTION("--target names the other platform") {
    auto o = d.options();
    o.target = "linux";
    const auto r = run_doctor(o, no_env);
    CHECK(find_offline_check(r, "toolkit.target")->status == CheckStatus::fail);
    CHECK(doctor_exit_code(r) == ExitCode::problems_found);
  }
}

TEST_CASE("offline Windows: a driver older than NVIDIA's minimum", "[windows_offline]") {
  Disk d;
  OfflineWindows in;
  in.system32 = d.system32.string();
  snapshot_windows_folders(in, *make_real_system(""));
  const auto checks = windows_offline_driver(in, "560.70");
  REQUIRE(checks.size() == 2);
  CHECK(checks[1].status == CheckStatus::fail);
  CHECK_THAT(checks[1].finding, Catch::Contains("552.22 is older than 560.70"));
}

namespace {
// A registry export as `reg export` writes it: UTF-16LE with a BOM, REG_EXPAND_SZ as continued hex(2) lines.
std::string reg_export_utf16(const std::string& key, const std::string& path_value, const std::string& extra) {
  std::string hex;
  int n = 0;
  auto byte = [&](unsigned char b) {
    hex += fmt::format("{}{:02x}", n ? "," : "", b);
    if (++n % 25 == 0) hex += ",\\\r\n  ", n = 0;
  };
  for (char ch : path_value) byte(static_cast<unsigned char>(ch)), byte(0);
  byte(0), byte(0);
  const std::string text = "Windows Registry Editor Version 5.00\r\n\r\n[" + key + "]\r\n" + extra + "\"Path\"=hex(2):" + hex + "\r\n\r\n";
  std::string out = "\xFF\xFE";
  for (char ch : text) out += ch, out += '\0';
  return out;
}
} // namespace

TEST_CASE("offline Windows through the CLI: PATH from registry exports, JSON, HTML, bad input", "[windows_offline]") {
  Disk d;
  const auto machine = d.tmp.path() / "machine.reg";
  const auto user = d.tmp.path() / "user.reg";
  std::ofstream(machine, std::ios::binary) << reg_export_utf16(
      "HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment", "%SystemRoot%\\system32;%CUDA_PATH%\\bin",
      "\"CUDA_PATH\"=\"C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v12.4\"\r\n\"OS\"=\"Windows_NT\"\r\n");
  std::ofstream(user, std::ios::binary) << reg_export_utf16("HKEY_CURRENT_USER\\Environment", "C:\\tools\\old-cudnn\\bin", "");
  const auto html = d.tmp.path() / "report.html";
  const auto r = run({"doctor", "--cuda-path", d.toolkit.string(), "--path-file", machine.string(), "--path-file", user.string(), "--json",
                      "--html", html.string()});
  INFO(r.out << r.err);
  CHECK(r.code == 11);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["offline"] == true);
  CHECK(j["toolkit"]["os"] == "windows");
  REQUIRE(j["shadow_scan"].is_object());
  CHECK_THAT(j["shadow_scan"]["origin"].get<std::string>(), Catch::Contains("machine.reg + "));
  // System32, the System and the Windows folder, then the machine Path (System32, then the toolkit through
  // %CUDA_PATH%), then the user's
  const auto& order = j["shadow_scan"]["order"];
  REQUIRE(order.size() >= 6);
  CHECK(order[1]["via"] == "System folder");
  CHECK(order[2]["via"] == "Windows folder");
  CHECK(order[3]["dir"] == "C:\\Windows\\system32");
  CHECK(order[3]["via"] == "PATH");
  CHECK(order[4]["dir"] == "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin");
  CHECK(order[5]["dir"] == "C:\\tools\\old-cudnn\\bin");
  bool toolkit_wins = false;
  for (const auto& c : j["shadow_scan"]["copies"]) toolkit_wins = toolkit_wins || (c["wins"] == true && c["installed"] == true);
  CHECK(toolkit_wins);
  std::ifstream in(html);
  std::stringstream page;
  page << in.rdbuf();
  CHECK_THAT(page.str(), Catch::Contains("<svg id=\"search-order\"") && Catch::Contains("copy winner installed"));

  // not a registry export: a clear error naming the file, exit 2, nothing written
  const auto bogus = d.tmp.path() / "path.txt";
  put(bogus, "C:\\Windows;C:\\CUDA\\bin\n");
  const auto bad = run({"doctor", "--cuda-path", d.toolkit.string(), "--path-file", bogus.string(), "--html", (d.tmp.path() / "no.html").string()});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("is not a registry export") && Catch::Contains("path.txt") && Catch::Contains("reg export"));
  CHECK_FALSE(fs::exists(d.tmp.path() / "no.html"));
  CHECK(run({"doctor", "--cuda-path", d.toolkit.string(), "--drive", "nonsense"}).code == 2);
  CHECK(run({"doctor", "--cuda-path", d.toolkit.string(), "--system32", (d.tmp.path() / "none").string()}).code == 8);
}
#endif
