#pragma once
// Runs cudnnctl in-process and keeps what it printed, for the CLI tests.
#include <sstream>
#include <string>
#include <vector>

#include "cudnnctl/app/app.hpp"

namespace cudnnctl::testing {

struct Run {
  int code;
  std::string out;
  std::string err;
};

inline Run run(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

} // namespace cudnnctl::testing
