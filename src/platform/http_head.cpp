// The response facts both HTTP implementations report: header lines folded into an HttpHead (pure).
#include <charconv>

#include "cudnnctl/platform/http.hpp"

namespace cudnnctl::platform {

namespace {
std::string_view trim_http(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::optional<std::uint64_t> http_number(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}
} // namespace

bool parse_content_range(std::string_view value, HttpHead& head) {
  value = trim_http(value);
  if (!value.starts_with("bytes ")) return false;
  value.remove_prefix(6);
  const auto slash = value.find('/');
  if (slash == std::string_view::npos) return false;
  const auto range = trim_http(value.substr(0, slash));
  const auto total_text = trim_http(value.substr(slash + 1));
  std::optional<std::uint64_t> total;
  if (total_text != "*") {
    total = http_number(total_text);
    if (!total) return false;
  }
  if (range == "*") {
    head.total = total;
    return total.has_value();
  }
  const auto dash = range.find('-');
  if (dash == std::string_view::npos) return false;
  const auto first = http_number(range.substr(0, dash)), last = http_number(range.substr(dash + 1));
  if (!first || !last || *last < *first || (total && *last >= *total)) return false;
  head.range_first = first;
  head.range_last = last;
  head.total = total;
  return true;
}

void take_http_header_line(HttpHead& head, std::string_view line) {
  line = trim_http(line);
  if (line.starts_with("HTTP/")) {  // a new response (the first, or the one after a redirect)
    const std::string url = head.effective_url;
    head = HttpHead{};
    head.effective_url = url;
    const auto sp = line.find(' ');
    if (sp != std::string_view::npos) {
      const auto code = http_number(line.substr(sp + 1, 3));
      if (code) head.status = static_cast<long>(*code);
    }
    return;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return;
  const auto name = trim_http(line.substr(0, colon));
  const auto value = trim_http(line.substr(colon + 1));
  if (same_name(name, "content-length")) head.content_length = http_number(value);
  else if (same_name(name, "content-range")) {
    HttpHead parsed;
    if (parse_content_range(value, parsed)) {
      head.range_first = parsed.range_first;
      head.range_last = parsed.range_last;
      head.total = parsed.total;
    }
  } else if (same_name(name, "etag")) head.etag = std::string(value);
  else if (same_name(name, "last-modified")) head.last_modified = std::string(value);
}

std::string http_range_value(const HttpGet& req) {
  if (req.range_last) return "bytes=" + std::to_string(req.resume_from) + "-" + std::to_string(*req.range_last);
  if (req.resume_from) return "bytes=" + std::to_string(req.resume_from) + "-";
  return {};
}

} // namespace cudnnctl::platform
