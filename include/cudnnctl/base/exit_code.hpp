#pragma once
// Documented process exit codes (docs/exit-codes.md lists the same table; a test keeps them in step).

namespace cudnnctl {

enum class ExitCode : int {
  ok = 0,
  failure = 1,            // an unexpected failure inside cudnnctl (a bug, or an I/O error it did not foresee)
  usage = 2,              // the command line is wrong: unknown option, missing argument
  unrecognised_name = 3,  // the archive's file name is not a cuDNN redistributable archive name
  verification_failed = 4,// the archive's SHA-256 does not match any expected hash
  unverifiable = 5,       // no expected hash is known for the archive (refused without --allow-unverified)
  bad_archive = 6,        // the archive is unreadable, corrupt, not an archive, or hostile
  incompatible = 7,       // the archive does not fit the target (OS, architecture, CUDA version)
  io_error = 8,           // a file could not be read or written (missing file, permission, disk full)
  bad_catalog = 9,        // the release catalog given with --catalog is unreadable or invalid
  doctor_failed = 10,     // doctor: at least one check failed
  doctor_gpu_skipped = 11,// doctor: healthy up to the GPU layers (4-5), which were skipped (no GPU, no driver, --no-gpu)
  not_effective = 12,     // path --apply: the change was written, but the loader still finds another cuDNN first
  bundle_refused = 13,    // bundle: the swap, unbundle or restore was refused, nothing changed
  unsafe_state = 14,      // a state file or a toolkit folder leads outside the toolkit: refused, nothing changed
  no_gpu_code = 15,       // install: the archive's libraries have no code for a GPU of this machine: refused, nothing changed
  no_fitting_release = 16,// install/fetch latest|9|9.19: no catalog archive of the request fits this toolkit, driver and GPUs
  interrupted = 130,      // install/uninstall interrupted (Ctrl-C, SIGTERM): every change was rolled back
};

constexpr int to_int(ExitCode c) { return static_cast<int>(c); }

} // namespace cudnnctl
