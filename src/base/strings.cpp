#include "cudnnctl/base/strings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace cudnnctl {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_ascii_digit(c)) return false;
  return true;
}

std::optional<std::uint32_t> parse_decimal(std::string_view s, std::size_t max_digits) {
  if (!all_digits(s) || s.size() > max_digits) return std::nullopt;
  if (s.size() > 1 && s.front() == '0') return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  if (v > 0xFFFFFFFFull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool iequals_ascii(std::string_view a, std::string_view b) {
  return a.size() == b.size() && to_lower_ascii(a) == to_lower_ascii(b);
}

std::string_view base_name(std::string_view path) {
  const auto pos = path.find_last_of("/\\");
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

std::string with_backslashes(std::string path) {
  std::replace(path.begin(), path.end(), '/', '\\');
  return path;
}

std::pair<char32_t, std::size_t> decode_utf8(std::string_view s) {
  constexpr std::pair<char32_t, std::size_t> bad{0xFFFD, 1};
  if (s.empty()) return bad;
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {b0, 1};
  std::size_t len = 0;
  char32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) { len = 2; cp = b0 & 0x1F; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; cp = b0 & 0x0F; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; cp = b0 & 0x07; }
  else return bad;
  if (s.size() < len) return bad;
  for (std::size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return bad;
    cp = (cp << 6) | (b & 0x3F);
  }
  // overlong forms, surrogates and values past U+10FFFF are invalid
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
      (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
    return bad;
  return {cp, len};
}

std::optional<std::uint32_t> parse_uint(std::string_view s) {
  std::uint32_t v = 0;
  if (s.empty() || !all_digits(s)) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::uint32_t parse_uint_or(std::string_view s, std::uint32_t fallback) { return parse_uint(s).value_or(fallback); }

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto [cp, len] = decode_utf8(s.substr(i));
    const bool bad = cp == 0xFFFD && len == 1;
    const bool control = (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp <= 0x9F);
    if (bad || control) {
      for (std::size_t k = 0; k < len; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i + k]));
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::size_t incomplete_utf8_tail(std::string_view s) {
  for (std::size_t back = 1; back <= 3 && back <= s.size(); ++back) {
    const auto b = static_cast<unsigned char>(s[s.size() - back]);
    if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back for the lead byte
    const std::size_t need = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

std::string code_point_label(char32_t cp) { return fmt::format("U+{:04X}", static_cast<std::uint32_t>(cp)); }

std::string to_hex(const unsigned char* data, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 0xF];
  }
  return out;
}

bool is_sha256_hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!(is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

int compare_dotted(std::string_view a, std::string_view b) {
  const auto pa = split(a, '.');
  const auto pb = split(b, '.');
  for (std::size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    const auto va = i < pa.size() ? parse_decimal(pa[i], 9).value_or(0) : 0;
    const auto vb = i < pb.size() ? parse_decimal(pb[i], 9).value_or(0) : 0;
    if (va != vb) return va < vb ? -1 : 1;
  }
  return 0;
}

std::string human_size(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024.0 && u < 3) { v /= 1024.0; ++u; }
  return fmt::format("{} bytes ({:.2f} {})", bytes, v, units[u]);
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string utf16le_to_utf8(std::string_view b) {
  std::size_t i = 0;
  if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0xFF && static_cast<unsigned char>(b[1]) == 0xFE) i = 2;
  std::string out;
  out.reserve(b.size() / 2);
  auto unit = [&](std::size_t at) {
    return static_cast<char32_t>(static_cast<unsigned char>(b[at]) | (static_cast<unsigned char>(b[at + 1]) << 8));
  };
  for (; i + 1 < b.size(); i += 2) {
    char32_t u = unit(i);
    if (u >= 0xD800 && u < 0xDC00 && i + 3 < b.size()) {
      const char32_t lo = unit(i + 2);
      if (lo >= 0xDC00 && lo < 0xE000) {
        append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
        i += 2;
        continue;
      }
    }
    append_utf8(out, u >= 0xD800 && u < 0xE000 ? char32_t{0xFFFD} : u);
  }
  return out;
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

int compare_versions(std::string_view a, std::string_view b) {
  auto parts = [](std::string_view v) {
    std::vector<std::uint64_t> out;
    const char* p = v.data();
    const char* end = v.data() + v.size();
    while (p < end) {
      std::uint64_t n = 0;
      const auto [next, ec] = std::from_chars(p, end, n);
      if (ec != std::errc()) break;
      out.push_back(n);
      if (next == end || *next != '.') break;
      p = next + 1;
    }
    return out;
  };
  auto x = parts(a), y = parts(b);
  const auto n = std::max(x.size(), y.size());
  x.resize(n), y.resize(n);
  return x < y ? -1 : x > y ? 1 : 0;
}

} // namespace cudnnctl
