#pragma once
// What this machine is, for one command run: the GPUs and the driver (the driver-only probe child of
// device_gate.hpp, started at the first ask and never twice), and the resolver's view of the machine (the
// platform, the toolkit chosen, the driver and the GPUs: catalog/release_resolver's MachineFacts). The
// readers (install's resolver and GPU gate, fetch, `explain --here`) hold one Machine per run; the doctor,
// whose full probe child learns the same GPUs and driver while it loads cuDNN, hands that answer in
// (know_gpus) instead of starting a second child. Its loader (loader_view.hpp: the places searched, the loader's
// winner, the cuDNN copies along its order) is gathered at the first ask too.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cudnnctl/catalog/release_resolver.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/machine/device_gate.hpp"
#include "cudnnctl/machine/loader_view.hpp"

namespace cudnnctl {

/// Asks the driver for its GPUs (probe_machine_gpus; tests plant a fake).
using GpuAsk = std::function<MachineGpus(const std::string& driver_library)>;

class Machine {
public:
  /// `driver_library`: the driver asked (empty: libcuda.so.1 / nvcuda.dll by name).
  /// `env`: the environment programs start with (null: this process's); `read_ld_cache`: the ld.so cache's text
  /// (empty: `ldconfig -p`).
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
  /// This host's loader, made at the first call and kept (copies of this Machine share it).
  LoaderView& loader();

private:
  std::string m_driver_library;
  GpuAsk m_ask;
  std::optional<MachineGpus> m_gpus;
  int m_asks = 0;
  std::shared_ptr<const platform::Environment> m_env;
  LdCacheRead m_read_ld_cache;
  std::shared_ptr<LoaderView> m_loader;
};

/// The facts for `platform` from what is known: the toolkit (when there is one, for that platform's OS), the
/// driver and the GPUs (when `gpus` is given: the platform is this host's).
MachineFacts machine_facts(const std::string& platform, const Toolkit* toolkit, const MachineGpus* gpus);

} // namespace cudnnctl
