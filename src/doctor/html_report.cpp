// doctor --html: the report as one self-contained page (inline CSS and SVG, no scripts, no network).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

namespace {

std::string esc(std::string_view s) { return html_escape(s); }

// Long folder names keep their start and their end.
std::string shorten(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  const auto head = max / 2 - 2, tail = max - head - 3;
  return s.substr(0, head) + "..." + s.substr(s.size() - tail);
}


const char* k_css = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1180px;color:#1d2330;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#5a6372;margin-bottom:12px}.meta code{background:#eef1f5;padding:1px 5px;border-radius:3px}
.summary{display:inline-block;padding:6px 12px;border-radius:6px;font-weight:600;margin:6px 0 4px}
.summary.ok{background:#dcf5e3;color:#135c2b}.summary.problems{background:#fde2e1;color:#8a1c17}.summary.gpu-skipped{background:#fff4d6;color:#6b4f00}
.counts span{margin-right:14px}
table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.08)}
th,td{text-align:left;vertical-align:top;padding:7px 10px;border-bottom:1px solid #e6e9ee}
th{background:#f0f3f7;font-weight:600}
tr.layer td{background:#f6f8fa;font-weight:600;color:#3c4656}
td.id{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px;white-space:nowrap}
.badge{display:inline-block;min-width:38px;text-align:center;padding:1px 6px;border-radius:4px;font-size:12px;font-weight:700;text-transform:uppercase}
.badge.pass{background:#dcf5e3;color:#135c2b}.badge.warn{background:#fff4d6;color:#6b4f00}.badge.fail{background:#fde2e1;color:#8a1c17}.badge.skip{background:#eceff3;color:#4b5563}
.why{font-size:13px;color:#3c4656}.why b{color:#1d2330}
ul.notes{color:#3c4656}
svg text{font-family:system-ui,"DejaVu Sans",sans-serif}
)";

std::string search_svg(const ShadowReport& sh) {
  // the folders in search order, and the copies found in each
  std::map<std::size_t, std::vector<const CudnnCopy*>> in_folder;
  std::optional<std::size_t> installed_at, winner_at;
  for (const auto& c : sh.copies) {
    for (std::size_t i = 0; i < sh.order.size(); ++i)
      if (sh.order[i].dir == c.dir && sh.order[i].via == c.via) {
        in_folder[i].push_back(&c);
        if (c.installed && !installed_at) installed_at = i;
        if (c.wins) winner_at = i;
        break;
      }
  }
  unsigned winner_major = 0;
  for (const auto& c : sh.copies)
    if (c.wins) winner_major = c.major;
  const int row_h = 54, top = 16, width = 1120;
  const int height = top + static_cast<int>(sh.order.size()) * row_h + 12;
  std::string out = fmt::format(
      "<svg id=\"search-order\" xmlns=\"http://www.w3.org/2000/svg\" style=\"max-width:100%;height:auto\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"the loader's search order\">\n",
      width, height, width, height);
  out += "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"4\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#9aa4b2\"/></marker></defs>\n";
  for (std::size_t i = 0; i < sh.order.size(); ++i) {
    const auto& d = sh.order[i];
    const int y = top + static_cast<int>(i) * row_h;
    const auto copies = in_folder.count(i) ? in_folder[i] : std::vector<const CudnnCopy*>{};
    const bool has = !copies.empty();
    out += fmt::format("<g class=\"folder{}\" data-index=\"{}\">\n", has ? " has-copy" : "", i + 1);
    if (i + 1 < sh.order.size())
      out += fmt::format("<line x1=\"26\" y1=\"{}\" x2=\"26\" y2=\"{}\" stroke=\"#9aa4b2\" stroke-width=\"2\" marker-end=\"url(#arrow)\"/>\n", y + 36, y + row_h - 2);
    out += fmt::format("<circle cx=\"26\" cy=\"{}\" r=\"13\" fill=\"{}\"/><text x=\"26\" y=\"{}\" text-anchor=\"middle\" font-size=\"12\" "
                       "font-weight=\"700\" fill=\"#fff\">{}</text>\n",
                       y + 20, has ? "#3b6fd8" : "#b7bfca", y + 24, i + 1);
    out += fmt::format("<rect x=\"48\" y=\"{}\" width=\"{}\" height=\"40\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/>\n", y, width - 56,
                       has ? "#ffffff" : "#f3f5f8", has ? "#c9d3e0" : "#e3e7ed");
    out += fmt::format("<text x=\"60\" y=\"{}\" font-size=\"13\" fill=\"{}\"><title>{}</title>{}</text>\n", y + 17, has ? "#1d2330" : "#6b7380",
                       esc(d.dir + (d.local.empty() || d.local == d.dir ? "" : "  (here: " + d.local + ")")), esc(shorten(d.dir, 84)));
    out += fmt::format("<text x=\"60\" y=\"{}\" font-size=\"11\" fill=\"#6b7380\">via {}</text>\n", y + 32, esc(d.via));
    int x = width - 16;
    for (auto it = copies.rbegin(); it != copies.rend(); ++it) {
      const auto& c = **it;
      std::string cls = "copy";
      std::string label = fmt::format("cuDNN {}", c.version);
      std::string tag;
      std::string fill = "#eef1f5", stroke = "#c9d3e0", ink = "#1d2330";
      if (c.wins) cls += " winner", tag = "loaded", fill = "#dcf5e3", stroke = "#2f9e57", ink = "#135c2b";
      if (c.installed) cls += " installed", tag = tag.empty() ? "installed, not loaded" : tag + ", installed";
      if (!c.installed && c.major == winner_major && installed_at && i < *installed_at)
        cls += " shadowing", tag = c.wins ? "loaded: shadows the installed copy" : "shadows the installed copy", fill = c.wins ? fill : "#fde2e1",
            stroke = "#c2413b", ink = c.wins ? ink : "#8a1c17";
      if (c.installed && !c.wins && c.major == winner_major) fill = "#fff4d6", stroke = "#c79a1e", ink = "#6b4f00";
      if (tag.empty() && c.major != winner_major) tag = "other major";
      const int w = static_cast<int>(std::max(label.size(), tag.size()) * 7 + 20);
      x -= w + 8;
      out += fmt::format("<g class=\"{}\" data-version=\"{}\" data-file=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"32\" rx=\"5\" "
                         "fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>"
                         "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"700\" fill=\"{}\">{}</text>"
                         "<text x=\"{}\" y=\"{}\" font-size=\"10.5\" fill=\"{}\">{}</text></g>\n",
                         cls, esc(c.version), esc(c.main_file), x, y + 4, w, fill, stroke, c.wins ? 2 : 1, x + 10, y + 17, ink, esc(label), x + 10,
                         y + 30, ink, esc(tag.empty() ? c.main_file : tag));
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  (void)winner_at;
  return out;
}

} // namespace

std::string doctor_html(const DoctorReport& r) {
  const auto summary = summarize(r);
  const auto code = summary.code;
  const char* summary_class = code == ExitCode::ok ? "ok" : code == ExitCode::problems_found ? "problems" : "gpu-skipped";
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cudnnctl doctor";
  if (r.toolkit) out += " - " + esc(r.toolkit->root);
  out += "</title>\n<style>" + std::string(k_css) + "</style></head>\n<body>\n<h1>cudnnctl doctor</h1>\n";
  out += "<div class=\"meta\">";
  if (r.toolkit)
    out += fmt::format("CUDA {} toolkit (<code>{}</code>) at <code id=\"toolkit-root\">{}</code>{}", esc(r.toolkit->version),
                       esc(std::string(to_string(r.toolkit->os))), esc(r.toolkit->root),
                       r.offline ? " &middot; read offline: nothing was loaded" : "");
  else
    out += "no CUDA toolkit was found";
  out += "</div>\n";
  out += fmt::format("<div id=\"summary\" class=\"summary {}\" data-exit-code=\"{}\">{} (exit {})</div>\n", summary_class, to_int(code),
                     summary.verdict, to_int(code));
  out += fmt::format("<div class=\"counts\"><span>{} passed</span><span>{} warnings</span><span>{} failed</span><span>{} skipped</span></div>\n",
                     summary.passed, summary.warnings, summary.failed, summary.skipped);

  out += "<h2>Checks, layer by layer</h2>\n<table id=\"checks\">\n<thead><tr><th>status</th><th>check</th><th>finding</th><th>cause and fix</th></tr></thead>\n<tbody>\n";
  int layer = 0;
  for (const auto& c : r.checks) {
    if (c.layer != layer) {
      layer = c.layer;
      out += fmt::format("<tr class=\"layer\" data-layer=\"{}\"><td colspan=\"4\">layer {} &middot; {}</td></tr>\n", layer, layer,
                         layer_name(layer));
    }
    const std::string status(to_string(c.status));
    out += fmt::format("<tr class=\"check {}\" data-id=\"{}\" data-layer=\"{}\"><td><span class=\"badge {}\">{}</span></td><td class=\"id\">{}</td><td>{}</td><td class=\"why\">",
                       status, esc(c.id), c.layer, status, status, esc(c.id), esc(c.finding));
    if (c.status != CheckStatus::pass) {
      if (!c.cause.empty()) out += "<div class=\"cause\"><b>cause:</b> " + esc(c.cause) + "</div>";
      if (!c.fix.empty()) out += "<div class=\"fix\"><b>fix:</b> " + esc(c.fix) + "</div>";
    }
    out += "</td></tr>\n";
  }
  out += "</tbody></table>\n";

  out += "<h2>Where programs find cuDNN</h2>\n";
  if (r.search) {
    out += fmt::format("<p class=\"meta\">The loader's search order ({}), first folder first. Each cuDNN copy is shown in the folder "
                       "that holds it: <b style=\"color:#2f9e57\">loaded</b> is the one a program asking for that major gets; a copy before the "
                       "installed one <b style=\"color:#c2413b\">shadows</b> it.</p>\n",
                       esc(r.search_origin));
    out += search_svg(*r.search);
  } else {
    out += "<p class=\"meta\" id=\"no-search-order\">The search order was not scanned (no cuDNN in the toolkit, or no PATH given for a "
           "Windows toolkit read offline: --path-value or --path-file).</p>\n";
  }
  if (!r.notes.empty()) {
    out += "<h2>Notes</h2>\n<ul class=\"notes\">\n";
    for (const auto& n : r.notes) out += "<li>" + esc(n) + "</li>\n";
    out += "</ul>\n";
  }
  out += "<p class=\"meta\">Generated by cudnnctl doctor. Checks, causes and fixes: docs/doctor.md and docs/troubleshooting.md.</p>\n";
  out += "</body></html>\n";
  return out;
}

} // namespace cudnnctl
