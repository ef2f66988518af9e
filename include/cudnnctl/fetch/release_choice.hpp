#pragma once
// `install latest|9|9.19` and `fetch`: the machine as the resolver (catalog/release_resolver) sees it, the choice,
// and how it is shown (--dry-run: the choice and why each newer archive was passed over; --json: the same).
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/catalog/release_resolver.hpp"
#include "cudnnctl/fetch/fetch.hpp"

namespace cudnnctl {

struct ReleaseChoice {
  MachineFacts facts;
  Resolution resolution;  // its pointers point into the run's catalog
  bool forced = false;    // install --force: nothing fitted, chosen without the driver and the GPUs
};

/// Resolves `req.version` in `catalog` (an unknown version's manifest learnt into it first, by the caller) for
/// `facts`, and pins `req` to the chosen archive (its full version, CUDA variant and the archive itself: no later
/// step resolves it again). `force`: when nothing fits, the newest archive for the platform and the toolkit's
/// (or asked) CUDA is taken, with a warning in `warnings`.
Result<ReleaseChoice> choose_release(FetchRequest& req, const MachineFacts& facts, const Catalog& catalog, bool force,
                                     std::vector<std::string>& warnings);

/// {"request", "chosen": {filename, version, cuda_variant, platform}, "passed_over": [{filename, version, cuda_variant, reason}],
///  "notes", "machine": {...}}
nlohmann::json release_choice_json(const ReleaseChoice& choice);
/// The choice, the machine, each archive passed over and why, the notes: for --dry-run.
void render_release_choice(const ReleaseChoice& choice, std::ostream& out);
/// Outside --dry-run: the archives passed over, as warnings (none: nothing said).
std::vector<std::string> passed_over_warnings(const ReleaseChoice& choice);

}  // namespace cudnnctl
