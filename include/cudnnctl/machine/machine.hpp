#pragma once
// What this machine is, for one command run, each part gathered at the first ask and never twice:
// - the CUDA toolkits the environment names (toolkit_choice.hpp: surveyed once, the one a command works on chosen
//   from that survey and kept);
// - the GPUs and the driver (the driver-only probe child of device_gate.hpp);
// - its loader (loader_view.hpp: the places searched, the loader's winner, the cuDNN copies along its order);
// - the framework bundles of cuDNN (machine_bundles.hpp);
// and the resolver's view of all that (the platform, the toolkit chosen, the driver and the GPUs:
// catalog/release_resolver's MachineFacts). The readers (install's resolver and GPU gate, fetch, path, `explain
// --here`, the doctor) hold one Machine per run. The doctor gathers through its own seam (doctor/system.hpp) what
// a fake system must be able to plant, and hands its answers in: its full probe child learns the same GPUs and
// driver while it loads cuDNN (know_gpus, instead of a second child), its bundle scan fills bundles(); its facts
// read them back from here (doctor/facts.hpp).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cudnnctl/catalog/release_resolver.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/machine/device_gate.hpp"
#include "cudnnctl/machine/loader_view.hpp"
#include "cudnnctl/machine/machine_bundles.hpp"
#include "cudnnctl/machine/toolkit_choice.hpp"

namespace cudnnctl {

/// Asks the driver for its GPUs (probe_machine_gpus; tests plant a fake).
using GpuAsk = std::function<MachineGpus(const std::string& driver_library)>;

class Machine {
public:
  /// `driver_library`: the driver asked (empty: libcuda.so.1 / nvcuda.dll by name).
  /// `env`: the environment programs start with (null: this process's; platform::snapshot_environment keeps
  /// another one's variables for the machine's life); `read_ld_cache`: the ld.so cache's text (empty: `ldconfig -p`).
  explicit Machine(std::string driver_library = {}, GpuAsk ask = probe_machine_gpus,
                   std::shared_ptr<const platform::Environment> env = {}, LdCacheRead read_ld_cache = {});
  /// The GPUs and the driver: asked at the first call, then kept.
  const MachineGpus& gpus();
  /// The answer another gathering already has (the doctor's probe): no child is started for it.
  void know_gpus(MachineGpus gpus);
  /// The GPUs and the driver when known (asked, or handed in), else null: no child is started for it.
  const MachineGpus* known() const { return m_gpus ? &*m_gpus : nullptr; }
  /// How many times the driver was asked in this run (0 or 1).
  int asks() const { return m_asks; }
  /// The resolver's facts for `platform`: the toolkit (when there is one, for that platform's OS), and the
  /// driver and the GPUs only when `platform` is this host's (asked then, if not yet known).
  MachineFacts facts(const std::string& platform, const Toolkit* toolkit, bool this_host);
  /// The resolver's facts for `fetch VERSION`: `platform` (this host's when empty); the toolkit (the one
  /// `cuda_path` names, else the survey's first) fitted when `cuda` is empty and the toolkit is of that platform,
  /// and then `cuda` is its CUDA major; the driver and the GPUs only when the platform is this host's. A
  /// `cuda_path` that names no toolkit: that error; no toolkit found: the facts without one (said in the log). The
  /// facts' cuda_variant is `cuda` as given (--cuda: the variant the resolver must take; empty: any).
  Result<MachineFacts> release_facts(std::string& platform, std::string& cuda, const std::string& cuda_path);
  /// This host's loader, made at the first call and kept (copies of this Machine share it).
  LoaderView& loader();

  /// The environment programs start with, as this machine reads it.
  const platform::Environment& environment() const { return *m_env; }
  /// The toolkits the environment names, with `cuda_path` (when given) looked at first: surveyed at the first
  /// call for that `cuda_path`, then kept.
  const ToolkitSurvey& toolkits(const std::string& cuda_path = {});
  /// How many times the environment was surveyed for toolkits in this run.
  int toolkit_surveys() const { return m_toolkit_surveys; }
  /// The toolkit a command works on: the one `cuda_path` names (it must be a toolkit: read_cuda_path), else the
  /// survey's first of CUDA major `cuda_major` (when given), else its first. Kept as toolkit(); `reason` says why.
  Result<Toolkit> select_toolkit(const std::string& cuda_path, const std::optional<std::string>& cuda_major, std::string& reason);
  /// The toolkit select_toolkit chose last; null before.
  const Toolkit* toolkit() const { return m_toolkit ? &*m_toolkit : nullptr; }

  /// The framework bundles: empty (gathered false) until a gathering fills them (the doctor's gather_bundles).
  BundleFacts& bundles() { return m_bundles; }
  const BundleFacts& bundles() const { return m_bundles; }

private:
  std::string m_driver_library;
  GpuAsk m_ask;
  std::optional<MachineGpus> m_gpus;
  int m_asks = 0;
  std::shared_ptr<const platform::Environment> m_env;
  LdCacheRead m_read_ld_cache;
  std::shared_ptr<LoaderView> m_loader;
  std::map<std::string, ToolkitSurvey> m_surveys;  // by --cuda-path ("" for none)
  int m_toolkit_surveys = 0;
  std::optional<Toolkit> m_toolkit;
  BundleFacts m_bundles;
};

/// The archive platform of this host for an OS: linux-<this machine's arch>, or windows-x86_64 / windows-arm64
/// for a Windows target (another OS's archive is for its usual architecture).
std::string host_platform_name(Os os);

/// The facts for `platform` from what is known: the toolkit (when there is one, for that platform's OS), the
/// driver and the GPUs (when `gpus` is given: the platform is this host's).
MachineFacts machine_facts(const std::string& platform, const Toolkit* toolkit, const MachineGpus* gpus);

} // namespace cudnnctl
