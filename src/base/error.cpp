#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

Unexpected<Error> fail(ErrorCode code, std::string message, std::string hint, std::string path) {
  return Unexpected<Error>(Error{code, std::move(message), std::move(hint), std::move(path)});
}

std::string_view error_id(ErrorCode code) {
  switch (code) {
  case ErrorCode::internal: return "internal";
  case ErrorCode::usage: return "usage";
  case ErrorCode::name_empty: return "name.empty";
  case ErrorCode::name_too_long: return "name.too-long";
  case ErrorCode::name_non_ascii: return "name.non-ascii";
  case ErrorCode::name_not_cudnn: return "name.not-cudnn";
  case ErrorCode::name_sibling_product: return "name.sibling-product";
  case ErrorCode::name_installer: return "name.installer";
  case ErrorCode::name_malformed: return "name.malformed";
  case ErrorCode::name_bad_version: return "name.bad-version";
  case ErrorCode::name_unknown_platform: return "name.unknown-platform";
  case ErrorCode::name_bad_extension: return "name.bad-extension";
  case ErrorCode::catalog_unreadable: return "catalog.unreadable";
  case ErrorCode::catalog_invalid: return "catalog.invalid";
  case ErrorCode::file_not_found: return "io.not-found";
  case ErrorCode::io: return "io.error";
  case ErrorCode::hash_mismatch: return "verify.mismatch";
  case ErrorCode::hash_unknown: return "verify.no-expected-hash";
  case ErrorCode::hash_bad_input: return "verify.bad-hash-input";
  case ErrorCode::archive_not_archive: return "archive.not-an-archive";
  case ErrorCode::archive_corrupt: return "archive.corrupt";
  case ErrorCode::archive_hostile: return "archive.hostile";
  case ErrorCode::archive_encoding: return "archive.name-encoding";
  case ErrorCode::archive_layout: return "archive.layout";
  case ErrorCode::archive_too_large: return "archive.too-large";
  case ErrorCode::incompatible: return "install.incompatible";
  case ErrorCode::host_too_old: return "install.host-too-old";
  case ErrorCode::input_invalid: return "input.invalid";
  case ErrorCode::path_not_effective: return "path.not-effective";
  case ErrorCode::bundle_refused: return "bundle.refused";
  case ErrorCode::unsafe_state: return "state.unsafe";
  case ErrorCode::manifest_refused: return "catalog.manifest-refused";
  case ErrorCode::interrupted: return "interrupted";
  case ErrorCode::no_gpu_code: return "install.no-gpu-code";
  case ErrorCode::no_fitting_release: return "catalog.no-fitting-release";
  }
  return "internal";
}

ExitCode exit_code_for(ErrorCode code) {
  switch (code) {
  case ErrorCode::internal: return ExitCode::failure;
  case ErrorCode::usage: return ExitCode::usage;
  case ErrorCode::name_empty:
  case ErrorCode::name_too_long:
  case ErrorCode::name_non_ascii:
  case ErrorCode::name_not_cudnn:
  case ErrorCode::name_sibling_product:
  case ErrorCode::name_installer:
  case ErrorCode::name_malformed:
  case ErrorCode::name_bad_version:
  case ErrorCode::name_unknown_platform:
  case ErrorCode::name_bad_extension: return ExitCode::unrecognised_name;
  case ErrorCode::catalog_unreadable:
  case ErrorCode::catalog_invalid:
  case ErrorCode::manifest_refused: return ExitCode::bad_catalog;
  case ErrorCode::file_not_found:
  case ErrorCode::io: return ExitCode::io_error;
  case ErrorCode::hash_mismatch:
  case ErrorCode::hash_bad_input: return ExitCode::verification_failed;
  case ErrorCode::hash_unknown: return ExitCode::unverifiable;
  case ErrorCode::archive_not_archive:
  case ErrorCode::archive_corrupt:
  case ErrorCode::archive_hostile:
  case ErrorCode::archive_encoding:
  case ErrorCode::archive_layout:
  case ErrorCode::archive_too_large: return ExitCode::bad_archive;
  case ErrorCode::incompatible:
  case ErrorCode::host_too_old: return ExitCode::incompatible;
  case ErrorCode::input_invalid: return ExitCode::usage;
  case ErrorCode::path_not_effective: return ExitCode::not_effective;
  case ErrorCode::bundle_refused: return ExitCode::bundle_refused;
  case ErrorCode::unsafe_state: return ExitCode::unsafe_state;
  case ErrorCode::interrupted: return ExitCode::interrupted;
  case ErrorCode::no_gpu_code: return ExitCode::no_gpu_code;
  case ErrorCode::no_fitting_release: return ExitCode::no_fitting_release;
  }
  return ExitCode::failure;
}

} // namespace cudnnctl
