#include "cudnnctl/explain/loader_error.hpp"

#include <regex>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool has_any(const std::string& lower, std::initializer_list<std::string_view> pieces) {
  for (auto p : pieces)
    if (lower.find(p) != std::string::npos) return true;
  return false;
}

LoaderError undefined_symbol_error(const std::string& line) {
  LoaderError e{LoaderErrorKind::undefined_symbol, {}, {}, {}};
  std::smatch m;
  // "X.so.8: undefined symbol: SYM, version libY.so.8" / "X.so.8 :undefined symbol: SYM , version libY.so.8"
  static const std::regex undefined(R"(([^\s'"]+\.so(?:\.[0-9]+)*)?\s*:?\s*undefined symbol:\s*([A-Za-z_][A-Za-z0-9_.@]*)(?:\s*,\s*version\s+([A-Za-z0-9_.+-]+))?)");
  // "X.so.8: symbol SYM, version libY.so.8 not defined in file libY.so.8 with link time reference"
  static const std::regex not_defined(R"(([^\s'"]+\.so(?:\.[0-9]+)*)?\s*:?\s*symbol\s+([A-Za-z_][A-Za-z0-9_]*),\s*version\s+([A-Za-z0-9_.+-]+)\s+not defined in file)");
  if (std::regex_search(line, m, undefined) || std::regex_search(line, m, not_defined)) {
    e.failing_file = m[1].str();
    e.symbol = m[2].str();
    e.symbol_owner = m[3].str();
  }
  return e;
}

} // namespace

std::string LoaderError::meaning() const {
  switch (kind) {
  case LoaderErrorKind::not_found: return "the loader found no file of that name on its search path";
  case LoaderErrorKind::dependency_missing: return "the file is there, but a DLL it imports is on none of Windows' search folders";
  case LoaderErrorKind::undefined_symbol:
    return "the file was found, but a library it needs is another release's copy that lacks a function it calls";
  case LoaderErrorKind::wrong_class: return "the copy found first is built for another architecture (32-bit, or another CPU)";
  case LoaderErrorKind::glibc_version: return "the library was built on a newer system than this one (its C or C++ runtime is older)";
  case LoaderErrorKind::invalid_handle: return "a library failed to load earlier and the program then called into it";
  case LoaderErrorKind::paging_file: return "Windows could not map the DLLs: its paging file is too small";
  }
  return {};
}

std::optional<LoaderError> loader_error_in(std::string_view text) {
  const std::string line(text);
  const auto lower = to_lower_ascii(line);
  if (has_any(lower, {"winerror 1455", "error code 1455", "paging file is too small"})) return LoaderError{LoaderErrorKind::paging_file, {}, {}, {}};
  if (has_any(lower, {"version `glibc", "version `glibcxx", "version 'glibc", "version 'glibcxx"}))
    return LoaderError{LoaderErrorKind::glibc_version, {}, {}, {}};
  if (has_any(lower, {"undefined symbol", "not defined in file", "symbol lookup error", "winerror 127", "error code 127",
                      "procedure could not be found", "entry point"}))
    return undefined_symbol_error(line);
  if (has_any(lower, {"wrong elf class", "elfclass", "wrong machine", "winerror 193", "error code 193", "not a valid win32",
                      "\xe4\xb8\x8d\xe6\x98\xaf\xe6\x9c\x89\xe6\x95\x88\xe7\x9a\x84 win32"}))
    return LoaderError{LoaderErrorKind::wrong_class, {}, {}, {}};
  static const std::regex cannot_load(R"(Cannot load symbol\s+([A-Za-z_][A-Za-z0-9_]*))", std::regex::icase);
  std::smatch m;
  if (std::regex_search(line, m, cannot_load)) return LoaderError{LoaderErrorKind::invalid_handle, m[1].str(), {}, {}};
  if (has_any(lower, {"one of its dependencies", "without its dependencies"})) return LoaderError{LoaderErrorKind::dependency_missing, {}, {}, {}};
  if (has_any(lower, {"cannot open shared object file", "could not locate", "could not be found", "cannot be found", "could not find", "unable to load any of", "is not found",
                      "not found or cannot be loaded", "cannot find", "could not load dynamic library", "could not load library",
                      "failed to load library", "unable to load dll", "unable to load library", "dll load failed", "winerror 126",
                      "error code 126", "0x8007007e", "specified module could not be found", "specified module cannot be found",
                      "no such file or directory", "dlopen failed", "cannot dlopen", "not found"}))
    return LoaderError{LoaderErrorKind::not_found, {}, {}, {}};
  return std::nullopt;
}

} // namespace cudnnctl
