#include "cudnnctl/bundle/record.hpp"

#include <charconv>

#include <fmt/format.h>

namespace cudnnctl {

namespace {

// One CSV line into fields: quotes around a field, "" inside quotes for one quote.
std::optional<std::vector<std::string>> csv_fields(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"' && out.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

} // namespace

Result<std::vector<RecordEntry>> parse_record(std::string_view text, const std::string& origin) {
  std::vector<RecordEntry> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const auto fields = csv_fields(line);
    if (!fields || fields->size() != 3 || (*fields)[0].empty())
      return fail(ErrorCode::input_invalid, fmt::format("{} line {} is not a RECORD row (path,hash,size)", origin, line_no),
                  "the distribution's RECORD is damaged; reinstall the package with pip", origin);
    RecordEntry e{(*fields)[0], (*fields)[1], std::nullopt};
    const auto& s = (*fields)[2];
    std::uint64_t n = 0;
    if (!s.empty()) {
      const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
      if (ec != std::errc() || p != s.data() + s.size())
        return fail(ErrorCode::input_invalid, fmt::format("{} line {} has a size that is not a number", origin, line_no),
                    "the distribution's RECORD is damaged; reinstall the package with pip", origin);
      e.size = n;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string record_hash_of_hex(std::string_view hex) {
  static constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int hi = hex_value(hex[i]), lo = hex_value(hex[i + 1]);
    if (hi < 0 || lo < 0) return {};
    bytes += static_cast<char>(hi * 16 + lo);
  }
  std::string out = "sha256=";
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int s : {18, 12, 6, 0}) out += k_alphabet[(v >> s) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += k_alphabet[(v >> 18) & 63];
    out += k_alphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    for (int s : {18, 12, 6}) out += k_alphabet[(v >> s) & 63];
  }
  return out;
}

} // namespace cudnnctl
