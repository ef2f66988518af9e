#pragma once
// install's gate on the staged libraries of an archive for this OS, judged once the hash has matched (no second
// pass over the archive): a Linux archive's glibc / libstdc++ floor against this host (install.host-too-old),
// the driver against the archive's CUDA (a warning, device_gate.hpp) and the GPU code against every GPU of the
// machine (install.no-gpu-code). `force`: the refusals become warnings. The machine's GPUs are asked on a thread
// at once (the driver-only probe child runs while the archive is verified and extracted), or taken from the
// machine when the resolver asked already.
#include <functional>
#include <memory>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/machine/machine.hpp"

namespace cudnnctl {

using WarnFn = std::function<void(const std::string&)>;

/// InstallRequest::check_staged_libraries for the archive `name` (file `archive`) on this machine.
std::function<Result<void>(const std::string& staged_library_dir)> staged_library_gate(const ArchiveName& name, const std::string& archive,
                                                                                         bool force, std::shared_ptr<Machine> machine,
                                                                                         WarnFn warn);

} // namespace cudnnctl
