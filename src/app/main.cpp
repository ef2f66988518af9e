#include <iostream>
#include <string>
#include <vector>

#include "cudnnctl/app/app.hpp"
#include "cudnnctl/platform/command_line.hpp"
#include "cudnnctl/platform/terminal.hpp"

int main(int argc, char** argv) {
  const auto term = cudnnctl::platform::stderr_terminal();
  return cudnnctl::run_cli(cudnnctl::platform::utf8_arguments(argc, argv), std::cout, std::cerr, term.live, term.color);
}
