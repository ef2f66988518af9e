// The doctor's report as text: checks under their layer, cause and fix under what did not pass.
#include <fmt/format.h>

#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

std::string doctor_text(const DoctorReport& r) {
  std::string out;
  int layer = 0;
  for (const auto& c : r.checks) {
    if (c.layer != layer) {
      layer = c.layer;
      out += fmt::format("layer {}  {}\n", layer, layer_name(layer));
    }
    std::string tag(to_string(c.status));
    for (auto& ch : tag) ch = static_cast<char>(ch - 'a' + 'A');
    out += fmt::format("  {:<4}  {:<22} {}\n", tag, c.id, c.finding);
    if (!c.cause.empty() && c.status != CheckStatus::pass) out += fmt::format("        cause: {}\n", c.cause);
    if (!c.fix.empty() && c.status != CheckStatus::pass) out += fmt::format("        fix:   {}\n", c.fix);
  }
  for (const auto& n : r.notes) out += fmt::format("note: {}\n", n);
  const auto s = summarize(r);
  out += fmt::format("summary: {} passed, {} warnings, {} failed, {} skipped; {} (exit {})\n", s.passed, s.warnings, s.failed, s.skipped,
                     s.verdict, to_int(s.code));
  return out;
}

} // namespace cudnnctl
