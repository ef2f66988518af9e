#pragma once
// Folders listed and PE files read while the doctor gathers its facts, so that the Windows loader model's
// checks resolve imports from memory (a test fills one by hand).
#include <map>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/utf8_path.hpp"  // join_path: the key of a file in a snapshot
#include "cudnnctl/loader/pe_reader.hpp"

namespace cudnnctl {

struct FileSnapshot {
  std::map<std::string, std::vector<std::string>> dirs;  // local folder -> the names in it
  std::map<std::string, Result<PeImports>> pe;           // local file -> its PE headers, or why not

  const std::vector<std::string>& list(const std::string& dir) const {
    static const std::vector<std::string> none;
    const auto it = dirs.find(dir);
    return it == dirs.end() ? none : it->second;
  }
  const Result<PeImports>* pe_of(const std::string& path) const {
    const auto it = pe.find(path);
    return it == pe.end() ? nullptr : &it->second;
  }
};

} // namespace cudnnctl
