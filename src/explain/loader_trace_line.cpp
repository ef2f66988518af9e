#include "cudnnctl/explain/loader_trace_line.hpp"

#include <regex>

namespace cudnnctl {

namespace {

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

std::optional<LoaderTraceLine> loader_trace_line_in(std::string_view text) {
  const std::string line(text);
  std::smatch m;
  // LD_DEBUG prefixes each line with the process id and a tab: "     18570:\t  trying file=/usr/lib/libcuda.so.1".
  static const std::regex find(R"(^\s*[0-9]+:\s+find library=([^\s\[]+)\s*\[[0-9]+\];\s*searching)");
  static const std::regex path(R"(^\s*[0-9]+:\s+search path=(\S*)\s+\((.+)\)\s*$)");
  static const std::regex cache(R"(^\s*[0-9]+:\s+search cache=(\S+))");
  static const std::regex trying(R"(^\s*[0-9]+:\s+trying file=(\S+))");
  static const std::regex init(R"(^\s*[0-9]+:\s+calling init: (\S+))");
  if (std::regex_search(line, m, find)) return LoaderTraceLine{TraceEvent::find, m[1].str(), {}, {}, false};
  if (std::regex_search(line, m, path)) return LoaderTraceLine{TraceEvent::search_path, {}, m[1].str(), m[2].str(), false};
  if (std::regex_search(line, m, cache)) return LoaderTraceLine{TraceEvent::search_path, {}, m[1].str(), "ld.so.cache", false};
  if (std::regex_search(line, m, trying)) return LoaderTraceLine{TraceEvent::trying, base_of(m[1].str()), m[1].str(), {}, false};
  if (std::regex_search(line, m, init)) return LoaderTraceLine{TraceEvent::loaded, base_of(m[1].str()), m[1].str(), {}, false};
  // Process Monitor: "python.exe  4242  CreateFile  C:\x\cudnn64_9.dll  NAME NOT FOUND  Desired Access: ...", or its CSV
  // export "...","CreateFile","C:\x\cudnn64_9.dll","NAME NOT FOUND",...; "Load Image" rows are the DLLs mapped.
  static const std::regex procmon(
      R"re((CreateFile|Load Image|QueryOpen)"?[\s,]+"?([A-Za-z]:\\[^"\t]*?\.dll)"?[\s,]+"?(SUCCESS|NAME NOT FOUND|PATH NOT FOUND)\b)re",
      std::regex::icase);
  if (std::regex_search(line, m, procmon)) {
    const auto result = m[3].str();
    const bool ok = result == "SUCCESS" || result == "success";
    if (ok && m[1].str() == "QueryOpen") return std::nullopt;  // a probe that the file exists: not a load
    return LoaderTraceLine{ok ? TraceEvent::loaded : TraceEvent::not_found, base_of(m[2].str()), m[2].str(), {}, true};
  }
  return std::nullopt;
}

} // namespace cudnnctl
