#pragma once
// What a forked child needs to exec, built before fork(). cudnnctl forks from a process that may run other
// threads (install's driver probe runs beside the archive's extraction): after fork() only async-signal-safe
// calls are allowed, and a malloc or setenv there can wait forever on a lock another thread held at the fork
// (seen under ASan: its allocator's lock is not reset in the child). So argv and the environment are copied
// into arrays first, and the child only dup2s, closes and execs.
#include <unistd.h>  // environ (declared by glibc with _GNU_SOURCE, which g++ defines)

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace cudnnctl::platform {

class ChildExec {
public:
  ChildExec(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& extra_env) : m_args(argv) {
    for (char** e = environ; e && *e; ++e) {
      const char* eq = std::strchr(*e, '=');
      const std::string key(*e, eq ? static_cast<std::size_t>(eq - *e) : std::strlen(*e));
      bool replaced = false;
      for (const auto& [k, v] : extra_env) replaced = replaced || k == key;
      if (!replaced) m_env.emplace_back(*e);
    }
    for (const auto& [k, v] : extra_env) m_env.push_back(k + "=" + v);
    for (auto& a : m_args) m_argv.push_back(a.data());
    m_argv.push_back(nullptr);
    for (auto& e : m_env) m_envp.push_back(e.data());
    m_envp.push_back(nullptr);
  }

  /// In the child: execs (a bare name is looked up on PATH); returns only when that failed, errno set.
  void exec() const {
    if (m_args[0].find('/') == std::string::npos) ::execvpe(m_argv[0], m_argv.data(), m_envp.data());
    else ::execve(m_argv[0], m_argv.data(), m_envp.data());
  }

private:
  std::vector<std::string> m_args;
  std::vector<std::string> m_env;
  std::vector<char*> m_argv;
  std::vector<char*> m_envp;
};

} // namespace cudnnctl::platform
