#pragma once
// Registry export files (`reg export ... file.reg`, regedit's "Export"): the keys and values they hold,
// and the PATH a new Windows process gets from the machine and user Environment keys. Pure: the
// doctor reads a broken Windows machine's PATH from such a file on any OS.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct RegValue {
  std::string name;  // "" for the default value (@)
  std::string type;  // REG_SZ, REG_EXPAND_SZ, REG_MULTI_SZ, REG_DWORD, REG_BINARY, REG_QWORD, REG_NONE
  std::string data;  // strings as UTF-8 (REG_MULTI_SZ joined with '\n'); numbers in decimal; binary as hex
};

struct RegKey {
  std::string path;  // HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Control\Session Manager\Environment
  std::vector<RegValue> values;
};

/// Parses a .reg file: UTF-16LE with a BOM ("Windows Registry Editor Version 5.00") or ANSI/UTF-8
/// ("REGEDIT4"), with continued lines. `origin` names the file in errors.
Result<std::vector<RegKey>> parse_reg_export(std::string_view bytes, const std::string& origin);

/// What a new process's environment gets from exported Environment keys: the machine Path, then the
/// user Path (as Windows joins them), and every other variable (user values override machine ones).
struct ExportedEnvironment {
  std::string path;
  std::map<std::string, std::string> vars;  // upper-case names
  std::vector<std::string> sources;         // which keys gave values
};
ExportedEnvironment environment_from_exports(const std::vector<RegKey>& keys);

/// Reads `reg export` files (each through the hostile-input-safe reader, 16 MiB at most), parses them and
/// merges their Environment keys. An error names the file; files holding neither Environment key are an error.
Result<ExportedEnvironment> read_environment_exports(const std::vector<std::string>& files);

} // namespace cudnnctl
