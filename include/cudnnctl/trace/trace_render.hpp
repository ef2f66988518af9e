#pragma once
// The trace report for people (text), for machines (JSON, schema cudnnctl.trace/1) and as one HTML page.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/trace/trace.hpp"

namespace cudnnctl {

struct TraceRunInfo {
  std::vector<std::string> command;
  int exit_code = 0;
  int signal = 0;
};

std::string trace_text(const TraceReport& r, const TraceRunInfo& run);
nlohmann::json trace_json(const TraceReport& r, const TraceRunInfo& run);
std::string trace_html(const TraceReport& r, const TraceRunInfo& run);

} // namespace cudnnctl
