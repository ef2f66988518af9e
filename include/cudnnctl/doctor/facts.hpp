#pragma once
// What the doctor knows about a machine, gathered once (doctor/gather_*.cpp) before any check runs.
// Checks (doctor/checks_*.cpp) are functions over these facts alone: no disk, no child process. Tests
// build DoctorFacts in memory, or gather them through a FakeSystem (doctor/system.hpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/machine/machine_bundles.hpp"
#include "cudnnctl/machine/probe.hpp"
#include "cudnnctl/doctor/windows_offline.hpp"
#include "cudnnctl/env/cuda_stack.hpp"
#include "cudnnctl/env/installer_copies.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"
#include "cudnnctl/loader/glibc_floor.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

namespace cudnnctl {

/// Which loader the toolkit's programs meet: chosen once from the toolkit's OS (not the host's).
enum class LoaderModel { linux_elf, windows_pe };

/// What a check needs gathered; the table's rows for the selected layers decide what is gathered.
enum Need : unsigned {
  need_toolkit = 0,          // layer 1 and the toolkit's own listing are always read
  need_receipt = 1u << 0,
  need_search_path = 1u << 1,
  need_linkage = 1u << 3,    // ELF/PE imports resolved along the loader's search order
  need_probe = 1u << 4,      // the child process that loads cuDNN and the driver
  need_workload = 1u << 5,   // the GPU workload child
  need_driver_files = 1u << 6,  // ld cache libcuda entries, the driver version file, nvcuda.dll
  need_stack = 1u << 7,      // the whole CUDA stack a program could load (Linux toolkit of this machine)
  need_bundles = 1u << 8,    // framework bundles of cuDNN below the Python environments (the bundle module's scan)
  need_gpu_code = 1u << 9,   // the fat binaries of the toolkit's cuDNN (and, with need_bundles, of the frameworks' CUDA libraries)
};

/// The GPU code one library carries (its fat binaries), or why it could not be read.
struct LibraryGpuCode {
  std::string file;     // a cuDNN library's name in runtime_dir; a framework library's path
  std::string owner;    // "" for cuDNN; "PyTorch" for libtorch_cuda.so / torch_cuda.dll
  std::optional<GpuCode> code;
  std::string error;    // unreadable: why
};

struct GpuCodeFacts {
  bool gathered = false;
  std::vector<LibraryGpuCode> cudnn;       // the toolkit's cuDNN libraries of the chosen major
  std::vector<LibraryGpuCode> frameworks;  // frameworks' own CUDA libraries beside the bundles' cuDNN
};

/// The whole stack a program on this machine could load (gathered for a Linux toolkit, online only).
struct StackFacts {
  bool gathered = false;
  std::optional<std::string> cudnn_path;   // $CUDNN_PATH
  std::string loader_cudnn_dir;            // the folder of the libcudnn the loader takes (empty: none)
  std::vector<std::string> same_as_loader_dir;  // folders under $CUDNN_PATH that are that folder (links resolved)
  std::vector<StackLibrary> libraries;     // cudart, cuBLAS(Lt), NVRTC, cuDNN: toolkit, LD_LIBRARY_PATH, wheels
  std::string libcuda;                     // the libcuda.so.1 the loader takes (real path), empty: none
  std::string host_driver;                 // the kernel module's version, empty when unknown
  WslFacts wsl;
};

/// One of CUDA_HOME, CUDA_PATH, CUDA_ROOT as this environment sets it.
struct CudaVar {
  std::string name;
  std::optional<std::string> value;  // nullopt: not set (an empty value counts as not set)
  bool is_dir = false;               // the value names a folder
  std::string canonical;             // the folder, links resolved (empty when not set)
};

/// The glibc / libstdc++ floor of the toolkit's cuDNN libraries against this host's (Linux toolkits here).
struct FloorFacts {
  bool gathered = false;
  LibraryFloor floor;
  std::vector<std::string> unreadable;
  HostSymbolVersions host;
};

struct ToolkitFacts {
  std::vector<Toolkit> found;            // every toolkit the environment names, in precedence order
  std::vector<std::string> notes;        // names that are not toolkits
  std::optional<Toolkit> chosen;
  std::string cuda_path;                 // --cuda-path as given; empty when not given
  std::optional<std::string> cuda_path_problem;  // --cuda-path names no toolkit: why
  std::vector<std::pair<std::string, std::string>> env_differs;  // CUDA_PATH/CUDA_HOME naming another toolkit
  std::string target;                    // --target
  std::vector<CudaVar> cuda_vars;        // CUDA_HOME, CUDA_PATH, CUDA_ROOT: the order cuDNN 9.24+ reads them in
};

/// One static dependency and where the loader model finds it (empty: nowhere).
struct Dependency {
  std::string library;   // the cuDNN file that needs it
  std::string name;      // libz.so.1, cublasLt64_12.dll
  std::string found_at;  // path, empty when not found
  std::string via;       // "LD_LIBRARY_PATH", "RUNPATH", "ld.so cache", "default folder"
};

struct LinkageFacts {
  std::vector<std::string> unreadable;   // "libcudnn_ops.so.9 (unreadable: ...)": not a library the loader can map
  std::vector<Dependency> needed;        // every DT_NEEDED entry, resolved
  std::vector<std::pair<std::string, std::string>> runtime_missing;  // opened by name at run time: name, what needs it
};

struct ReceiptFacts {
  enum class State { missing, ok, differs, corrupt } state = State::missing;
  std::size_t files = 0;
  std::string canonical_name;
  std::string archive;                   // the archive's file name as installed, and its SHA-256 (doctor --fix repairs from it)
  std::string sha256;
  std::vector<std::string> problems;
  std::vector<std::string> unlisted;     // cuDNN files in the install folders the receipt does not list ("lib64/libcudnn_ext.so.9")
  std::string error;                     // corrupt: why
};

struct InterruptedFacts {
  std::string journal_phase;             // "applying" or "committed": a transaction that did not finish; empty: none
  std::string journal_description;       // "install cudnn-... into /usr/local/cuda"
  std::string journal_error;             // the journal is there but unreadable
  std::vector<std::string> staging;      // staging folders left by a run that died (or one still running)
};

/// NVIDIA's Windows cuDNN installer's copies (files.windows_installer), for a Windows toolkit.
struct InstallerFacts {
  bool gathered = false;
  std::string root;                      // <ProgramFiles>\NVIDIA\CUDNN as that machine writes it
  std::string root_local;                // the same folder here; empty when not reachable (no drive mapped)
  std::vector<InstallerCopy> copies;     // by release, then CUDA folder
  std::vector<std::string> bin_on_path;  // the installer's own PATH entries (...\v9.x\bin, no DLLs) that PATH holds
};

struct DoctorFacts {
  // the run
  Os host_os = Os::linux_os;
  std::string host_description;
  bool offline = false;
  bool no_gpu = false;
  std::string driver_library;            // what the probe loads as the driver
  std::string driver_version_file;
  LoaderModel model = LoaderModel::linux_elf;
  std::vector<std::string> notes;        // how a foreign disk was mapped, and similar

  // layer 1
  ToolkitFacts toolkit;
  bool target_fits = true;
  const Toolkit* tk() const { return toolkit.chosen && target_fits ? &*toolkit.chosen : nullptr; }

  // layer 2
  std::string runtime_dir;               // the toolkit's runtime library folder, absolute (Toolkit::runtime_library_dir)
  std::vector<std::string> lib_names;    // its listing
  std::vector<std::string> unloadable;   // main/sub libraries of the chosen major that are not ELF/PE files
  std::optional<CudnnHeaderVersion> header;
  std::optional<unsigned> major;         // the cuDNN major the toolkit holds (header's, else the newest)
  FloorFacts glibc_floor;                // its libraries' glibc / libstdc++ floor (Linux toolkits on a Linux host)
  GpuCodeFacts gpu_code;                 // the GPU architectures in its libraries (and the frameworks' CUDA libraries)
  std::map<std::string, Result<PeImports>> dlls;  // Windows: each cuDNN DLL (and zlibwapi.dll) of runtime_dir, read
  ReceiptFacts receipt;
  InterruptedFacts interrupted;
  std::optional<ShadowReport> search;
  std::string search_origin;
  std::string search_skipped;            // why the search path was not scanned
  std::optional<LoaderPathPlan> search_plan;  // `path --apply`'s plan for the toolkit (Linux host, Linux toolkit)
  std::string system_root = "/";              // whose ld.so cache was read (DoctorOptions::system_root)

  // layer 3
  LinkageFacts linkage;                  // Linux model
  OfflineWindows win;                    // Windows model: the folders Windows searches, as local paths
  InstallerFacts installer;              // Windows model: NVIDIA's cuDNN installer's copies (gather_installer.cpp)
  std::optional<Result<ProbeResult>> probe;
  std::shared_ptr<Machine> machine;      // the run's machine: the probe's GPUs and driver handed to it (know_probe_gpus)
  /// The run's machine; for facts built in memory (tests), one made over this process's environment at the first ask.
  Machine& own_machine();
  /// The GPUs and the driver the probe found, as the machine knows them; null when no probe answered.
  const MachineGpus* gpus() const { return machine ? machine->known() : nullptr; }

  // layer 4
  std::vector<std::string> stub_dirs;    // loader-path folders holding the toolkit's stub libcuda.so
  std::string driver_version;            // "550.54.14", empty when unread
  std::vector<SupportRow> support;       // the catalog's rows for this cuDNN and CUDA major
  std::optional<Result<WorkloadResult>> workload;

  /// The framework bundles (bundles.*), as the run's machine holds them (gather_bundles hands them to it); empty
  /// (gathered false) when there is no machine. The second fills them, making the machine when there is none.
  const BundleFacts& bundles() const;
  BundleFacts& bundles();

  // layers 2-4: the whole stack (files.cudnn_path, stack.cuda_major, driver.compat, driver.wsl)
  StackFacts stack;
};

} // namespace cudnnctl
