// cudnnctl doctor: layered diagnosis (toolkit -> files -> loader -> driver/device -> workload).
#include <iostream>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>

#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/probe.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

CommandRun setup_doctor(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<DoctorOptions>();
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit to diagnose (default: found from the environment)");
  sub.add_option("--layer", opts->only_layer, "Show only this layer (1-5)")->check(CLI::Range(1, 5));
  sub.add_flag("--no-gpu", opts->no_gpu, "Skip the GPU workload (layer 5)");
  sub.add_flag("--json", shared_io.json, "Print one JSON document (schema cudnnctl.doctor/1)");
  // test seams: which file to load as the driver, and where its version is read
  sub.add_option("--driver-library", opts->driver_library, "")->group("");
  sub.add_option("--driver-version-file", opts->driver_version_file, "")->group("");
  return [opts](Io& io) -> Result<ExitCode> {
    opts->self_exe = platform::self_executable();
    platform::ProcessEnvironment env;
    const auto report = run_doctor(*opts, env);
    if (io.json) io.out << doctor_json(report).dump(2) << "\n";
    else io.out << doctor_text(report);
    return doctor_exit_code(report);
  };
}

CommandRun setup_probe(CLI::App& sub, Io&) {
  auto req = std::make_shared<ProbeRequest>();
  req->driver_library = "libcuda.so.1";
  sub.add_option("--lib-dir", req->lib_dir)->required();
  sub.add_option("--major", req->major)->required();
  sub.add_option("--driver-library", req->driver_library);
  auto no_driver = std::make_shared<bool>(false);
  sub.add_flag("--no-driver", *no_driver);
  return [req, no_driver](Io& io) -> Result<ExitCode> {
    req->with_driver = !*no_driver;
    return static_cast<ExitCode>(run_probe_child(*req, io.out));
  };
}

} // namespace cudnnctl
