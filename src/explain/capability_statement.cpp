#include "cudnnctl/explain/capability_statement.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

std::string GpuCapability::text() const { return fmt::format("{}.{}", major, minor); }

std::optional<GpuCapability> parse_capability(std::string_view text) {
  static const std::regex dotted(R"(^\s*([0-9]{1,2})\.([0-9])\s*$)");
  static const std::regex packed(R"(^\s*(?:sm_|compute_)?([0-9]{1,2})([0-9])[a-z]?\s*$)", std::regex::icase);
  const std::string s(text);
  std::smatch m;
  if (std::regex_match(s, m, dotted) || std::regex_match(s, m, packed))
    return GpuCapability{std::stoi(m[1].str()), std::stoi(m[2].str())};
  return std::nullopt;
}

std::vector<BuildTarget> build_targets_in(std::string_view text) {
  static const std::regex target(R"(\b(sm|compute)_([0-9]{2,3})([a-z]?)\b)", std::regex::icase);
  const std::string s(text);
  std::vector<BuildTarget> out;
  for (std::sregex_iterator it(s.begin(), s.end(), target), end; it != end; ++it) {
    const auto cc = parse_capability((*it)[2].str());
    if (!cc) continue;
    out.push_back({*cc, to_lower_ascii((*it)[1].str()) == "compute", (*it)[3].length() > 0});
  }
  return out;
}

std::string_view capability_fit_text(CapabilityFit f) {
  switch (f) {
  case CapabilityFit::native: return "the build has code for exactly this GPU";
  case CapabilityFit::same_major:
    return "the build has code for an older GPU of the same major, which this GPU runs (binary compatible within a major)";
  case CapabilityFit::ptx_jit: return "no compiled code runs on this GPU, but PTX does: the driver compiles it at start (slow, it runs)";
  case CapabilityFit::gpu_too_new: return "the GPU is newer than every target of the build: nothing in it runs on this GPU";
  case CapabilityFit::gpu_too_old: return "the GPU is older than the build's oldest target: nothing in it runs on this GPU";
  }
  return "";
}

CapabilityFit capability_fit(GpuCapability gpu, std::span<const BuildTarget> build) {
  bool same_major = false, ptx = false, any_older = false;
  for (const auto& t : build) {
    if (t.cc <= gpu) any_older = true;
    if (t.ptx) {
      if (t.cc <= gpu) ptx = true;
      continue;
    }
    if (t.cc == gpu) return CapabilityFit::native;
    if (!t.arch_specific && t.cc.major == gpu.major && t.cc.minor < gpu.minor) same_major = true;
  }
  if (same_major) return CapabilityFit::same_major;
  if (ptx) return CapabilityFit::ptx_jit;
  return any_older ? CapabilityFit::gpu_too_new : CapabilityFit::gpu_too_old;
}

std::string CapabilityStatement::said() const {
  std::string out;
  if (gpu) out = fmt::format("the GPU has compute capability {}", gpu->text());
  if (!build.empty()) {
    std::string list;
    for (const auto& t : build) list += fmt::format("{}{}_{}{}{}", list.empty() ? "" : " ", t.ptx ? "compute" : "sm", t.cc.major, t.cc.minor,
                                                    t.arch_specific ? "a" : "");
    out += fmt::format("{}the build has {}", out.empty() ? "" : "; ", list);
  }
  if (minimum) out += fmt::format("{}the build's minimum is {}", out.empty() ? "" : "; ", minimum->text());
  if (fit) out += fmt::format("{}{}", out.empty() ? "" : ": ", capability_fit_text(*fit));
  return out;
}

std::optional<CapabilityStatement> capability_statement_in(std::string_view text) {
  const std::string line(text);
  const auto lower = to_lower_ascii(line);
  const auto says = [&](std::string_view w) { return lower.find(w) != std::string::npos; };
  CapabilityStatement c;
  c.gpu_refused = says("is not compatible with the current pytorch installation") || says("no longer supports this gpu") ||
                  says("gpu because it is too old") || says("minimum cuda capability") || says("minimum required cuda capability");
  c.jit_from_ptx = says("jit-compiled from ptx") || says("will be jit-compiled") || says("jit compiled from ptx");
  const bool supports_list = says("supports cuda capabilities") || says("supports cuda capability");
  if (!c.gpu_refused && !c.jit_from_ptx && !supports_list) return std::nullopt;
  std::smatch m;
  static const std::regex gpu_sm(R"(with cuda capability (sm_[0-9]{2,3}[a-z]?))", std::regex::icase);
  static const std::regex gpu_dotted(R"((?:cuda|compute) capability:? ([0-9]{1,2}\.[0-9]))", std::regex::icase);
  static const std::regex minimum(R"(minimum (?:required )?cuda capability[^0-9]{0,40}?([0-9]{1,2}\.[0-9]))", std::regex::icase);
  if (std::regex_search(line, m, gpu_sm) || std::regex_search(line, m, gpu_dotted)) c.gpu = parse_capability(m[1].str());
  if (std::regex_search(line, m, minimum)) c.minimum = parse_capability(m[1].str());
  if (c.minimum && c.gpu && *c.minimum == *c.gpu) c.gpu.reset();  // "capability 3.7 ... minimum is 3.7" names one number twice
  if (supports_list) {
    const auto at = lower.find("supports cuda capabilit");
    c.build = build_targets_in(std::string_view(line).substr(at));
  }
  if (c.gpu && !c.build.empty()) c.fit = capability_fit(*c.gpu, c.build);
  else if (c.gpu && c.minimum) c.fit = *c.gpu < *c.minimum ? CapabilityFit::gpu_too_old : CapabilityFit::native;
  else if (c.jit_from_ptx) c.fit = CapabilityFit::ptx_jit;
  return c;
}

} // namespace cudnnctl
