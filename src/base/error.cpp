#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

Unexpected<Error> fail(ErrorCode code, std::string message, std::string hint, std::string path) {
  return Unexpected<Error>(Error{code, std::move(message), std::move(hint), std::move(path)});
}

// The switches come from the one table (base/error_table.def): a row added there is a case here.
std::string_view error_id(ErrorCode code) {
  switch (code) {
#define CUDNNCTL_ERROR(code, id, exit, meaning) \
  case ErrorCode::code: return id;
#include "cudnnctl/base/error_table.def"
  }
  return "internal";
}

ExitCode exit_code_for(ErrorCode code) {
  switch (code) {
#define CUDNNCTL_ERROR(code, id, exit, meaning) \
  case ErrorCode::code: return ExitCode::exit;
#include "cudnnctl/base/error_table.def"
  }
  return ExitCode::failure;
}

std::string_view error_meaning(ErrorCode code) {
  switch (code) {
#define CUDNNCTL_ERROR(code, id, exit, meaning) \
  case ErrorCode::code: return meaning;
#include "cudnnctl/base/error_table.def"
  }
  return {};
}

} // namespace cudnnctl
