#pragma once
// tests/fetch/http_server.py on 127.0.0.1 for the fetch tests: started in a temp folder, killed at the end.
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../install/toolkit_trees.hpp"

namespace cudnnctl::testing {

struct LocalHttpServer {
  std::string port, pid, port_file;
  LocalHttpServer(const fs::path& root, const fs::path& work) {
    port_file = (work / "port").string();
    const std::string cmd =
        "python3 " + std::string(CUDNNCTL_SOURCE_DIR) + "/tests/fetch/http_server.py '" + root.string() + "' '" + port_file + "' &";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (int i = 0; i < 100 && !fs::exists(port_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(port_file);
    in >> port >> pid;
    REQUIRE_FALSE(port.empty());
  }
  ~LocalHttpServer() {
    if (!pid.empty()) ::kill(std::stoi(pid), SIGKILL);
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  /// The TCP connections the server accepted so far.
  std::size_t connections() const {
    std::ifstream in(port_file + ".connections");
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  /// The requests so far, one "MODE RANGE" line each ("-": no Range header).
  std::vector<std::string> requests() const {
    std::vector<std::string> out;
    std::ifstream in(port_file + ".log");
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
};

} // namespace cudnnctl::testing
