#pragma once
// `install latest|9|9.19` and `fetch`: the machine as the resolver (catalog/release_resolver) sees it, the choice,
// and how it is shown (--dry-run: the choice and why each newer archive was passed over; --json: the same).
#include <iosfwd>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/catalog/release_resolver.hpp"
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/commands/device_gate.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/fetch/fetch.hpp"

namespace cudnnctl {

struct ReleaseChoice {
  MachineFacts facts;
  Resolution resolution;  // its pointers point into the run's catalog
  bool forced = false;    // install --force: nothing fitted, chosen without the driver and the GPUs
};

/// The facts for `platform`: the toolkit (when there is one, for that platform's OS), the driver and the GPUs
/// (when `gpus` is given: the platform is this host's).
MachineFacts machine_facts(const std::string& platform, const Toolkit* toolkit, const MachineGpus* gpus);

/// Reads an unknown version's manifest first (as fetch does), resolves `req.version` for `facts`, and pins `req`
/// to the chosen archive (its full version and CUDA variant). `force`: when nothing fits, the newest archive for
/// the platform and the toolkit's (or asked) CUDA is taken, with a warning.
Result<ReleaseChoice> choose_release(FetchRequest& req, const MachineFacts& facts, CatalogSource& catalogs, Io& io, bool force);

/// {"request", "chosen": {filename, version, cuda_variant, platform}, "passed_over": [{filename, version, cuda_variant, reason}],
///  "notes", "machine": {...}}
nlohmann::json release_choice_json(const ReleaseChoice& choice);
/// The choice, the machine, each archive passed over and why, the notes: for --dry-run.
void render_release_choice(const ReleaseChoice& choice, std::ostream& out);
/// Outside --dry-run: the archives passed over, as warnings (none: nothing said).
void warn_passed_over(const ReleaseChoice& choice, Io& io);

}  // namespace cudnnctl
