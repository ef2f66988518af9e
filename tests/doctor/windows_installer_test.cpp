// NVIDIA's Windows cuDNN installer's copies (files.windows_installer): a Windows disk mounted here, the toolkit
// without cuDNN, the installer's v9.1\bin\12.4 (mingw-built DLLs with version resources standing in for
// NVIDIA's; tests/windows_exe/installer_scenario.py runs the same on NVIDIA's real DLLs under wine).
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/contract/windows_installer.hpp"
#include "cudnnctl/doctor/doctor.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("the installer's folder names", "[windows_installer]") {
  CHECK(installer_release_folder("v9.1") == "9.1");
  CHECK(installer_release_folder("V9.19") == "9.19");
  CHECK_FALSE(installer_release_folder("v9"));
  CHECK_FALSE(installer_release_folder("9.1"));
  CHECK_FALSE(installer_release_folder("v9.1.0"));
  CHECK_FALSE(installer_release_folder("vX.1"));
  CHECK(installer_cuda_folder("12.4"));
  CHECK(installer_cuda_folder("13.0"));
  CHECK_FALSE(installer_cuda_folder("x64"));
  CHECK_FALSE(installer_cuda_folder("12"));
  CHECK_FALSE(installer_cuda_folder("12.4.1"));
  CHECK_FALSE(installer_cuda_folder(""));
  CHECK_FALSE(installer_cuda_folder("1234.5"));
}

TEST_CASE("which CUDA folder of the installer fits a toolkit", "[windows_installer]") {
  const std::vector<std::string> side_by_side{"11.8", "12.9", "13.0"};
  CHECK(fitting_cuda_folder(side_by_side, "12.4") == 1u);  // cuDNN built for 12.9 runs on every CUDA 12
  CHECK(fitting_cuda_folder(side_by_side, "13.2.1") == 2u);
  CHECK(fitting_cuda_folder(side_by_side, "11.8") == 0u);
  CHECK_FALSE(fitting_cuda_folder(side_by_side, "10.2"));
  CHECK_FALSE(fitting_cuda_folder(side_by_side, "12"));
  CHECK_FALSE(fitting_cuda_folder(side_by_side, ""));
  // the toolkit's own minor first, then the newest older one, then the oldest newer one
  CHECK(fitting_cuda_folder({"12.2", "12.4", "12.8"}, "12.4") == 1u);
  CHECK(fitting_cuda_folder({"12.8", "12.2", "12.3"}, "12.6") == 2u);
  CHECK(fitting_cuda_folder({"12.9", "12.8"}, "12.4") == 1u);
  CHECK(fitting_cuda_folder({"x64", "12.4"}, "12.4") == 1u);
  CHECK_FALSE(fitting_cuda_folder({}, "12.4"));
}

#ifdef CUDNNCTL_TEST_DLLS
namespace {

const fs::path installer_test_dlls = CUDNNCTL_TEST_DLLS;
const platform::MapEnvironment installer_no_vars(std::map<std::string, std::string>{});
const std::string installer_tk_bin = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin";
const std::string installer_v91_bin = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin";

// A Windows disk seen from here: a CUDA 12.4 toolkit with no cuDNN, and cuDNN 9.1.0.70 where NVIDIA's
// installer puts it (Program Files\NVIDIA\CUDNN\v9.1\bin\12.4, headers in include\12.4).
struct InstallerDisk {
  TempDir tmp;
  fs::path c, toolkit, cudnn;
  InstallerDisk() {
    c = tmp.path() / "disk-c";
    toolkit = c / "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4";
    put(toolkit / "version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})");
    put(toolkit / "include/cuda.h", "h");
    put(toolkit / "lib/x64/cudart.lib", "lib");
    put(toolkit / "bin/nvcc.exe", "nvcc");
    put(toolkit / "bin/cublasLt64_12.dll", "cublasLt");
    cudnn = c / "Program Files/NVIDIA/CUDNN/v9.1";
    lay_out(cudnn / "bin/12.4");
    put(cudnn / "include/12.4/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  }
  static void lay_out(const fs::path& dir) {
    fs::create_directories(dir);
    for (const auto* d : {"cudnn64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll", "cudnn_adv64_9.dll"})
      fs::copy_file(installer_test_dlls / d, dir / d);
  }
  DoctorOptions options(const std::string& path) const {
    DoctorOptions o;
    o.cuda_path = toolkit.string();
    o.windows_path = path;
    return o;
  }
};

const Check* installer_check(const DoctorReport& r, const std::string& id) {
  for (const auto& c : r.checks)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("offline Windows: the installer's copy off PATH is named with its owner and the fix", "[windows_installer]") {
  InstallerDisk d;
  // what the installer leaves: its own entry, the bin folder without DLLs
  const auto r = run_doctor(d.options(installer_tk_bin + ";" + installer_v91_bin + ";%SystemRoot%\\system32"), installer_no_vars);
  const auto* c = installer_check(r, "files.windows_installer");
  REQUIRE(c);
  CHECK(c->status == CheckStatus::fail);
  CHECK_THAT(c->finding, Catch::Contains(installer_v91_bin + "\\12.4") && Catch::Contains("windows-installer: NVIDIA cuDNN 9.1") &&
                             Catch::Contains("cuDNN 9.1.0.70 for CUDA 12.4") && Catch::Contains("not on PATH") &&
                             Catch::Contains("PATH holds the installer's own entry " + installer_v91_bin + ", a folder without DLLs"));
  CHECK_THAT(c->fix, Catch::Contains("add " + installer_v91_bin + "\\12.4 to that machine's PATH") &&
                         Catch::Contains("cudnnctl install cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip --cuda-path") &&
                         Catch::Contains("cudnnctl path --apply"));
  CHECK_THAT(c->cause, Catch::Contains("one level deeper"));
  const auto* files = installer_check(r, "files.cudnn");
  REQUIRE(files);
  CHECK(files->status == CheckStatus::fail);
  CHECK_THAT(files->finding, Catch::Contains(installer_v91_bin + "\\12.4") && Catch::Contains("which PATH does not name"));
  CHECK(doctor_exit_code(r) == ExitCode::problems_found);
  // --json: the installer's folders, each copy with its owner object
  const auto j = doctor_json(r)["windows_installer"];
  REQUIRE(j.is_object());
  CHECK(j["root"] == "C:\\Program Files\\NVIDIA\\CUDNN");
  CHECK(j["bin_on_path"] == nlohmann::json::array({installer_v91_bin}));
  REQUIRE(j["copies"].size() == 1);
  CHECK(j["copies"][0]["dir"] == installer_v91_bin + "\\12.4");
  CHECK(j["copies"][0]["version"] == "9.1.0.70");
  CHECK(j["copies"][0]["fits_toolkit"] == true);
  CHECK(j["copies"][0]["on_path"] == false);
  CHECK(j["copies"][0]["owner"]["kind"] == "windows-installer");
  CHECK(j["copies"][0]["owner"]["package"] == "NVIDIA cuDNN 9.1");
}

TEST_CASE("offline Windows: the installer's copy for the toolkit's CUDA on PATH passes", "[windows_installer]") {
  InstallerDisk d;
  const auto r = run_doctor(d.options(installer_tk_bin + ";" + installer_v91_bin + "\\12.4\\;%SystemRoot%\\system32"), installer_no_vars);
  const auto* c = installer_check(r, "files.windows_installer");
  REQUIRE(c);
  CHECK(c->status == CheckStatus::pass);
  CHECK_THAT(c->finding, Catch::Contains("is on PATH") && Catch::Contains(installer_v91_bin + "\\12.4"));
  CHECK(installer_check(r, "files.cudnn")->status == CheckStatus::warn);
  CHECK_THAT(installer_check(r, "files.cudnn")->finding, Catch::Contains("programs load it"));
  // as PATH may write it, with a variable that machine's exports need not define (the default Program Files)
  const auto by_var = run_doctor(d.options(installer_tk_bin + ";%ProgramFiles%\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4"), installer_no_vars);
  REQUIRE(installer_check(by_var, "files.windows_installer"));
  CHECK(installer_check(by_var, "files.windows_installer")->status == CheckStatus::pass);
}

TEST_CASE("offline Windows: the installer's later layouts and other CUDA majors", "[windows_installer]") {
  InstallerDisk d;
  SECTION("9.18 and later: bin\\<cuda>\\x64, side by side with a CUDA 11.8 folder; PATH's case and separators differ") {
    fs::remove_all(d.cudnn);
    const auto v923 = d.c / "Program Files/NVIDIA/CUDNN/v9.23";
    InstallerDisk::lay_out(v923 / "bin/11.8/x64");
    InstallerDisk::lay_out(v923 / "bin/12.9/x64");
    const auto r = run_doctor(d.options(installer_tk_bin + ";c:/program files/nvidia/cudnn/V9.23/BIN/11.8/x64"), installer_no_vars);
    const auto* c = installer_check(r, "files.windows_installer");
    REQUIRE(c);
    CHECK(c->status == CheckStatus::fail);  // the 11.8 folder is on PATH, the 12.9 one that fits is not
    CHECK_THAT(c->finding, Catch::Contains("C:\\Program Files\\NVIDIA\\CUDNN\\v9.23\\bin\\12.9\\x64") && Catch::Contains("for CUDA 12.9"));
    // the DLLs' version resource says 9.1.0.70, not 9.23: the archive is named by the folder's release alone
    CHECK_THAT(c->fix, Catch::Contains("cudnn-windows-x86_64-9.23.<patch>.<build>_cuda12-archive.zip"));
    const auto ok = run_doctor(d.options(installer_tk_bin + ";c:/program files/nvidia/cudnn/V9.23/BIN/12.9/x64/"), installer_no_vars);
    REQUIRE(installer_check(ok, "files.windows_installer"));
    CHECK(installer_check(ok, "files.windows_installer")->status == CheckStatus::pass);
  }
  SECTION("only a folder for another CUDA major") {
    fs::rename(d.cudnn / "bin/12.4", d.cudnn / "bin/11.8");
    const auto r = run_doctor(d.options(installer_tk_bin + ";" + installer_v91_bin + "\\11.8"), installer_no_vars);
    const auto* c = installer_check(r, "files.windows_installer");
    REQUIRE(c);
    CHECK(c->status == CheckStatus::fail);
    CHECK_THAT(c->finding, Catch::Contains("for CUDA 11.8") && Catch::Contains("other CUDA majors than the CUDA 12.4 toolkit"));
    CHECK_THAT(c->fix, Catch::Contains("pick CUDA 12"));
    CHECK(installer_check(r, "files.cudnn")->finding.find("NVIDIA's cuDNN installer") == std::string::npos);
  }
  SECTION("a toolkit with cuDNN of its own: the installer's copy off PATH is unused, not a failure") {
    for (const auto& e : fs::directory_iterator(d.cudnn / "bin/12.4")) fs::copy_file(e.path(), d.toolkit / "bin" / e.path().filename());
    const auto r = run_doctor(d.options(installer_tk_bin + ";" + installer_v91_bin), installer_no_vars);
    REQUIRE(installer_check(r, "files.windows_installer"));
    CHECK(installer_check(r, "files.windows_installer")->status == CheckStatus::pass);
    CHECK_THAT(installer_check(r, "files.windows_installer")->finding, Catch::Contains("unused"));
  }
  SECTION("a folder of the installer's name without cuDNN in it is no copy") {
    fs::remove_all(d.cudnn / "bin/12.4");
    fs::create_directories(d.cudnn / "bin/12.4/x64");
    const auto r = run_doctor(d.options(installer_tk_bin + ";" + installer_v91_bin), installer_no_vars);
    CHECK_FALSE(installer_check(r, "files.windows_installer"));
  }
}
#endif
