#include <iostream>
#include <string>
#include <vector>

#include "cudnnctl/app/app.hpp"
#include "cudnnctl/platform/terminal.hpp"

int main(int argc, char** argv) {
  return cudnnctl::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr,
                           cudnnctl::platform::stderr_is_terminal());
}
