#include "cudnnctl/machine/install_gate.hpp"

#include <future>
#include <utility>

#include "cudnnctl/install/gpu_code_gate.hpp"
#include "cudnnctl/install/library_floor.hpp"

namespace cudnnctl {

std::function<Result<void>(const std::string&)> staged_library_gate(const ArchiveName& name, const std::string& archive, bool force,
                                                                      std::shared_ptr<Machine> machine, WarnFn warn) {
  auto gpus = std::make_shared<std::future<MachineGpus>>(std::async(std::launch::async, [m = std::move(machine)] { return m->gpus(); }));
  return [name, archive, force, gpus, warn = std::move(warn)](const std::string& dir) -> Result<void> {
    const MachineGpus answer = gpus->valid() ? gpus->get() : MachineGpus{};
    for (const auto& w : driver_floor_warnings(name, answer)) warn(w);
    const bool floor = name.os == Os::linux_os;
    for (auto fits : {floor ? check_library_floor(folder_library_floor(dir), detect_host_symbol_versions(), archive) : Result<void>{},
                      check_gpu_code_for_devices(dir, answer.devices, archive)}) {
      if (fits) continue;
      if (!force) return fits;
      warn(fits.error().message + " (installing anyway: --force)");
    }
    return {};
  };
}

} // namespace cudnnctl
