#pragma once
// The setup functions of every command (each defined in src/commands/<name>.cpp).
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/fetch/fetch.hpp"
#include "cudnnctl/fetch/release_choice.hpp"

namespace cudnnctl {

CommandRun setup_inspect(CLI::App& sub, Io& io);
CommandRun setup_verify(CLI::App& sub, Io& io);
CommandRun setup_gpu_code(CLI::App& sub, Io& io);
CommandRun setup_extract(CLI::App& sub, Io& io);
CommandRun setup_install(CLI::App& sub, Io& io);
CommandRun setup_uninstall(CLI::App& sub, Io& io);
CommandRun setup_path(CLI::App& sub, Io& io);
CommandRun setup_doctor(CLI::App& sub, Io& io);
CommandRun setup_report(CLI::App& sub, Io& io);
CommandRun setup_probe(CLI::App& sub, Io& io);
CommandRun setup_bench(CLI::App& sub, Io& io);
CommandRun setup_explain(CLI::App& sub, Io& io);
CommandRun setup_trace(CLI::App& sub, Io& io);
CommandRun setup_fetch(CLI::App& sub, Io& io);
CommandRun setup_catalog(CLI::App& sub, Io& io);
CommandRun setup_workload_child(CLI::App& sub, Io& io);
CommandRun setup_bundle(CLI::App& sub, Io& io);
CommandRun setup_bundle_load_child(CLI::App& sub, Io& io);

/// A version no catalog knows: its release's manifest is read into the user catalog first (one small request),
/// unless --catalog names the only catalog or --offline forbids the network (fetch and install).
Result<void> learn_unknown_version(const FetchRequest& request, CatalogSource& catalogs, Io& io);
/// The resolver's choice with the run's catalog (an unknown version's manifest learnt first), its warnings said:
/// `req` is pinned to the chosen archive, which no later step resolves again (fetch and install).
Result<ReleaseChoice> choose_release_for(FetchRequest& req, const MachineFacts& facts, CatalogSource& catalogs, Io& io, bool force);
/// Fetches with the run's catalog, drawing progress on a terminal (fetch and install).
Result<FetchOutcome> fetch_for(FetchRequest request, CatalogSource& catalogs, Io& io);
/// Whether an archive argument names a release to fetch (latest, 9, 9.19, 9.19.0.56) rather than a file: a
/// file of that name, when there is one, wins (install and bundle swap).
bool names_a_release(const std::string& archive_argument);

} // namespace cudnnctl
