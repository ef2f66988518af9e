#pragma once
// Version statements in any wording and order: "compiled/built/linked against X but loaded/found/runtime Y",
// "Loaded runtime CuDNN library: Y but source was compiled with: X", "compiled (7102) and runtime (7005)",
// "the NVIDIA driver ... is too old (found version 11040)": which product, which version each side has,
// which side is older, and the compatibility rule that decides.
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

enum class VersionProduct { cudnn, cuda_runtime, driver, cublas, other };

struct DottedVersion {
  unsigned major = 0, minor = 0, patch = 0;
  bool has_minor = false;
  bool has_patch = false;
  std::string text() const;  // "8.9.0", "7.6"
  int compare(const DottedVersion& o) const;  // by major, then minor (when both have one), then patch
};

/// A cuDNN version as frameworks print it: "8.9.0", "(8, 5, 0)", "8906" (8.x: major*1000+minor*100+patch),
/// "90100" (9.x: major*10000+minor*100+patch), "7.4".
std::optional<DottedVersion> parse_cudnn_version(std::string_view text);
/// A CUDA version as the driver API reports it: "11040" -> 11.4, "12080" -> 12.8; "11.4" as written.
std::optional<DottedVersion> parse_cuda_version(std::string_view text);

enum class OlderSide { loaded, built, same };

struct VersionStatement {
  VersionProduct product = VersionProduct::other;
  std::string product_name;  // "cuDNN", "the driver's CUDA", "TensorRT's cuDNN"
  DottedVersion built;       // what the program was compiled/linked against or needs at least
  DottedVersion loaded;      // what it found at run time (the driver: the CUDA version the driver supports)
  bool built_known = false;
  OlderSide older = OlderSide::same;
  std::string rule;          // the compatibility rule that decides, in words
  std::string said() const;  // one sentence: "the cuDNN loaded is 8.8.0, older than the 8.9.0 ..."
};

std::optional<VersionStatement> version_statement_in(std::string_view line);

} // namespace cudnnctl
