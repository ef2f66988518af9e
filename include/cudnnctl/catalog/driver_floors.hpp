#pragma once
// The oldest NVIDIA driver each CUDA major (and minor, where it differs: CUDA 10.x) runs on, on Linux and
// Windows (data/driver-floors.json, built into the binary, with NVIDIA's pages as sources). The doctor
// compares the driver with the toolkit's and each bundle's CUDA; install warns when an archive's CUDA
// variant needs a newer driver than the one found; the resolver asks driver_floor_for().
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl {

struct DriverFloor {
  unsigned cuda_major = 0;
  std::optional<unsigned> cuda_minor;  // set only where a minor has its own floor (before CUDA 11)
  std::string linux_min;               // "525.60.13"
  std::string windows_min;             // "527.41"
  std::string note;
};

/// Parses a floor table: every row a CUDA version ("12" or "10.2") and a dotted Linux and Windows minimum.
Result<std::vector<DriverFloor>> parse_driver_floors(std::string_view json_text, const std::string& origin);

/// The built-in table (parsed once).
const std::vector<DriverFloor>& builtin_driver_floors();

/// The minimum driver for CUDA `cuda_major`.`cuda_minor` on `os` ("525.60.13"): the minor's own row where
/// there is one, else the major's; nullopt when the table has neither.
std::optional<std::string> driver_floor_for(unsigned cuda_major, std::optional<unsigned> cuda_minor, Os os,
                                            const std::vector<DriverFloor>& table = builtin_driver_floors());

/// Whether `driver` ("570.86.15") is below the floor for that CUDA on `os`; false when either is unknown.
bool driver_below_floor(const std::string& driver, unsigned cuda_major, std::optional<unsigned> cuda_minor, Os os);

} // namespace cudnnctl
