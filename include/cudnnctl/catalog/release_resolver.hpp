#pragma once
// The resolver: which catalog archive `install latest|9|9.19` and `fetch` choose for this machine. Pure: the
// machine is described by MachineFacts (gathered by the commands), the catalog by Catalog; no I/O.
// Rules (docs/catalog.md, "Choosing a release"), newest version first, then the newest CUDA variant:
//   * the platform's archives whose version starts with the request ("latest": every version);
//   * the CUDA variant asked for; else the toolkit's CUDA major; else any the driver runs;
//   * the driver runs the variant: the CUDA version its API reports, else its version against the floor (driver-floors.json);
//   * a support row of the release and variant, where the catalog has one, lists the toolkit's CUDA, a driver
//     minimum the driver meets and every GPU's compute capability (rows unknown: checked after download).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/catalog/catalog.hpp"

namespace cudnnctl {

struct MachineGpu {
  std::string name;  // "NVIDIA GeForce RTX 5090"
  unsigned cc_major = 0;
  unsigned cc_minor = 0;
};

struct ToolkitFact {
  std::string root;     // as the user knows it: /usr/local/cuda-13.0
  std::string version;  // major.minor: "13.0"
};

struct MachineFacts {
  std::string platform;                   // linux-x86_64, windows-x86_64, ...
  Os os = Os::linux_os;                   // the platform's OS (which driver floor applies)
  std::string cuda_variant;               // asked for (fetch --cuda); empty: from the toolkit or the driver
  std::optional<ToolkitFact> toolkit;     // none: fetch without a toolkit
  std::string driver_version;             // "550.54.15"; empty when unknown
  std::optional<int> driver_api_version;  // cuDriverGetVersion: 12040 = CUDA up to 12.4
  std::vector<MachineGpu> gpus;           // empty: none seen (or no driver)
};

struct PassedOver {
  const CatalogArchive* archive = nullptr;
  std::string reason;  // names the fact: "for CUDA 12; the toolkit at /usr/local/cuda is CUDA 13.0"
};

struct Resolution {
  std::string request;
  const CatalogArchive* chosen = nullptr;
  std::vector<PassedOver> passed_over;  // every candidate newer than the chosen one, newest first
  std::vector<std::string> notes;       // about the chosen one ("... checked after download")
};

/// "latest", or 1 to 4 dotted numbers ("9", "9.19", "9.19.0", "9.19.0.56").
bool is_release_request(std::string_view request);

/// The newest archive that fits, with a reason for each newer one passed over. Errors: a request that is not one
/// (usage), no archive of the platform for the request (io.not-found), none that fits
/// (catalog.no-fitting-release, every reason in the message).
Result<Resolution> resolve_release(const Catalog& catalog, std::string_view request, const MachineFacts& facts);

}  // namespace cudnnctl
