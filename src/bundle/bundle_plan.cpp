#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/bundle/bundle_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace cudnnctl {

namespace {
Unexpected<Error> refused(const Bundle& b, std::string why, std::string hint) {
  return fail(ErrorCode::bundle_refused, fmt::format("bundle swap of {} refused: {}; nothing was changed", b.dir, why), std::move(hint), b.dir);
}
} // namespace

Result<SwapPlan> plan_swap(const Bundle& b, const ArchiveLibraries& a, bool allow_downgrade) {
  if (b.files.empty() || b.cudnn_major == 0)
    return refused(b, "the folder holds no cuDNN library", "name the folder that holds the framework's cuDNN (see 'cudnnctl bundle list')");
  const auto main_lib = main_library(a.files, b.os);
  if (a.os != b.os || main_lib.empty())
    return refused(b, fmt::format("the archive holds no cuDNN library for {}", to_string(b.os)), "use the archive for the bundle's platform");
  const unsigned a_major = bundle_cudnn_major(a.files, a.os);
  if (a_major != b.cudnn_major)
    return refused(b, fmt::format("the archive is cuDNN {} and the bundle cuDNN {}: the framework was built against major {}", a_major,
                                  b.cudnn_major, b.cudnn_major),
                   fmt::format("use a cuDNN {}.x archive", b.cudnn_major));
  if (b.cuda_major && a.cuda_major && a.cuda_major != b.cuda_major)
    return refused(b, fmt::format("the archive is built for CUDA {} and the bundle's consumer for CUDA {}", a.cuda_major, b.cuda_major),
                   fmt::format("use the archive's _cuda{} variant", b.cuda_major));
  if (!b.arch.empty() && !a.arch.empty() && a.arch != b.arch)
    return refused(b, fmt::format("the archive's libraries are {} and the bundle's {}", a.arch, b.arch), "use the archive for the bundle's architecture");
  if (!allow_downgrade) {
    if (b.version.empty())
      return refused(b, "the bundle's version is unknown, so the archive may be older", "add --allow-downgrade if you know the archive is not older");
    if (compare_versions(a.version, b.version) < 0)
      return refused(b, fmt::format("the archive ({}) is older than the bundle ({}); PyTorch refuses a cuDNN runtime older than the one it "
                                    "was built with",
                                    a.version, b.version),
                     "use an archive at least as new, or add --allow-downgrade");
  }
  SwapPlan p;
  p.set_aside = b.files;
  p.place = a.files;
  for (const auto& f : a.files)
    if (std::find(b.files.begin(), b.files.end(), f) == b.files.end()) p.added.push_back(f);
  return p;
}

} // namespace cudnnctl
