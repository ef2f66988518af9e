// The `.part` file's sidecar: format, and a strict parse that treats the file as hostile.
#include "cudnnctl/fetch/download_state.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/fetch/parallel_download.hpp"

namespace cudnnctl {

namespace {
constexpr std::string_view k_state_magic = "cudnnctl-part 1";
constexpr std::size_t k_state_max_extents = 100000;
constexpr std::size_t k_state_max_validator = 1024;

std::optional<std::uint64_t> state_number(std::string_view s) {
  if (s.empty() || s.size() > 20 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool state_value_ok(std::string_view v) {
  if (v.size() > k_state_max_validator) return false;
  for (const unsigned char c : v)
    if (c < 0x20 || c == 0x7F) return false;
  return true;
}

// "KEY VALUE" with the exact key; the value may be empty ("KEY " or "KEY").
std::optional<std::string_view> state_field(std::string_view line, std::string_view key) {
  if (!line.starts_with(key)) return std::nullopt;
  line.remove_prefix(key.size());
  if (line.empty()) return line;
  if (line.front() != ' ') return std::nullopt;
  return line.substr(1);
}

std::vector<std::string_view> state_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    if (nl == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, nl));
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// One "done FIRST-LAST" line, after the extents before it (in order, not touching) and below the total.
bool take_done_line(std::string_view line, std::uint64_t total, std::uint64_t& floor, DownloadState& out) {
  const auto value = state_field(line, "done");
  if (!value) return false;
  const auto dash = value->find('-');
  if (dash == std::string_view::npos) return false;
  const auto first = state_number(value->substr(0, dash)), last = state_number(value->substr(dash + 1));
  if (!first || !last || *last < *first || *last >= total || *first < floor) return false;
  out.done.add(*first, *last + 1);
  floor = *last + 2;  // the next extent must leave a gap (merged extents never touch)
  return true;
}
} // namespace

std::string format_download_state(const DownloadState& s) {
  std::string out(k_state_magic);
  out += "\ntotal " + std::to_string(s.validators.total) + "\netag " + s.validators.etag + "\nlast-modified " + s.validators.last_modified + "\n";
  for (const auto& [b, e] : s.done.extents()) out += "done " + std::to_string(b) + "-" + std::to_string(e - 1) + "\n";
  return out + "end\n";
}

std::optional<DownloadState> parse_download_state(std::string_view text) {
  const auto lines = state_lines(text);
  if (lines.size() < 5 || lines.size() > k_state_max_extents + 5 || lines[0] != k_state_magic || lines.back() != "end") return std::nullopt;
  DownloadState out;
  const auto total_text = state_field(lines[1], "total");
  const auto etag = state_field(lines[2], "etag");
  const auto modified = state_field(lines[3], "last-modified");
  if (!total_text || !etag || !modified || !state_value_ok(*etag) || !state_value_ok(*modified)) return std::nullopt;
  const auto total = state_number(*total_text);
  if (!total || *total == 0) return std::nullopt;
  out.validators = {*total, std::string(*etag), std::string(*modified)};
  std::uint64_t floor = 0;
  for (std::size_t i = 4; i + 1 < lines.size(); ++i)
    if (!take_done_line(lines[i], *total, floor, out)) return std::nullopt;
  return out;
}

std::optional<DownloadState> read_download_state(const std::string& path) {
  std::ifstream in(path_from_utf8(path), std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > (k_state_max_extents + 8) * 48) return std::nullopt;  // larger than any sidecar we write
  }
  return parse_download_state(text);
}

bool write_download_state(const std::string& path, const DownloadState& state) {
  const auto tmp = path_from_utf8(path + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << format_download_state(state);
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path_from_utf8(path), ec);
  return !ec;
}

std::string download_state_path(const std::string& part_path) { return part_path + ".state"; }

void remove_partial_download(const std::string& part_path, bool with_part) {
  std::error_code ec;
  std::filesystem::remove(path_from_utf8(download_state_path(part_path)), ec);
  if (with_part) std::filesystem::remove(path_from_utf8(part_path), ec);
}

PriorDownload read_prior_download(const std::string& part_path, std::optional<std::uint64_t> expected_size) {
  namespace fs = std::filesystem;
  PriorDownload prior;
  std::error_code ec;
  const auto part = path_from_utf8(part_path);
  const auto size = fs::exists(part, ec) ? fs::file_size(part, ec) : 0;
  if (ec) return prior;
  const auto side = path_from_utf8(download_state_path(part_path));
  if (fs::exists(side, ec)) {
    const auto state = read_download_state(utf8_of(side));
    const bool fits = state && (!expected_size || state->validators.total == *expected_size) &&
                      (state->done.extents().empty() || std::prev(state->done.extents().end())->second <= size);
    if (!fits) {
      log::info("fetch: the sidecar {} does not describe {}; ignored, downloading from the start", utf8_of(side), part_path);
      return prior;
    }
    return {state->validators, state->done, true, false};
  }
  if (size > 0 && (!expected_size || size <= *expected_size)) {
    prior.done.add(0, size);  // a .part file of an earlier single-connection download: its prefix
    prior.legacy = true;
    if (expected_size && size == *expected_size) {  // every byte: only the hash is left
      prior.validators.total = size;
      prior.known = true;
    }
  }
  return prior;
}

} // namespace cudnnctl
