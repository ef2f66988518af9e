#pragma once
// Gathering the doctor's facts, once, through the DoctorSystem seam. `needs` (from the check table's rows
// for the selected layers) decides what is gathered: no probe or workload child unless a row needs it.
#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/doctor/system.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// The run's machine: the caller's (o.machine) when it shares one, else one over `env` (kept as a snapshot: the
/// report's facts outlive an environment made for one run) that asks `driver_library` for the GPUs.
std::shared_ptr<Machine> doctor_machine(const DoctorOptions& o, const platform::Environment& env, const std::string& driver_library);

DoctorFacts gather_facts(const DoctorOptions& options, const platform::Environment& env, DoctorSystem& sys, unsigned needs);

// the parts, in the order gather_facts runs them (each file: gather_<part>.cpp)
void gather_toolkit(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env);
/// CUDA_HOME, CUDA_PATH, CUDA_ROOT: set or not, and whether each names a folder (through `sys`).
void gather_cuda_vars(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys);
/// The glibc / libstdc++ floor of the toolkit's cuDNN libraries (read through `sys`) and this host's versions.
void gather_glibc_floor(DoctorFacts& f, DoctorSystem& sys);
/// The fat binaries of the toolkit's cuDNN (gather_gpu_code.cpp): needs only what gather_files found.
void gather_cudnn_gpu_code(DoctorFacts& f, unsigned needs, DoctorSystem& sys);
/// The fat binaries of the frameworks' CUDA libraries beside the bundles: after gather_bundles.
void gather_framework_gpu_code(DoctorFacts& f, unsigned needs, DoctorSystem& sys);
void gather_files(DoctorFacts& f, DoctorSystem& sys);
void gather_state(DoctorFacts& f, unsigned needs, DoctorSystem& sys);
void gather_search_path(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys);
/// The framework bundles (the one scan of framework cuDNN copies): below --site's folders, else $VIRTUAL_ENV's,
/// $CONDA_PREFIX's, the site folders python3 and python report (asked through `sys`) and the site folders of
/// this machine's other Python environments (~/.local, conda's envs under $HOME, /usr/local, /usr), and those
/// cudnnctl's bundle state names. gather_bundles.cpp
void gather_bundles(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys);
/// The Windows loader model's folders: from the given PATH and drive mappings (a tree read offline), or
/// from this Windows machine's own environment; then lists them and reads the DLLs into f.win.files.
void gather_windows(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys);
/// NVIDIA's Windows cuDNN installer's copies under f.installer.root_local (set by gather_windows): each
/// v9.x\bin\<cuda> (or its machine folder) that holds cuDNN, its main DLL's version, and which of them and of
/// the installer's own bin folders that machine's PATH (f.win.path) names. gather_installer.cpp
void gather_windows_installer(DoctorFacts& f, DoctorSystem& sys);
/// Lists the folders of `in` and reads the cuDNN DLLs and nvcuda.dll into in.files.
void snapshot_windows_folders(OfflineWindows& in, DoctorSystem& sys);
void gather_linkage(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys);
void gather_probe(DoctorFacts& f, const DoctorOptions& o, DoctorSystem& sys);
/// The catalog's support rows for the header's cuDNN and the toolkit's CUDA (o.catalog, else the built-in one).
void gather_support(DoctorFacts& f, const DoctorOptions& o);
void gather_driver(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys);
/// The probe's answer (f.probe) with the driver's version (f.driver_version) handed to the run's machine
/// (f.machine, made when null): what the layer-4 checks read as the GPUs and the driver.
void know_probe_gpus(DoctorFacts& f);
void gather_workload(DoctorFacts& f, DoctorSystem& sys);
void gather_stack(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys);  // gather_stack.cpp

} // namespace cudnnctl
