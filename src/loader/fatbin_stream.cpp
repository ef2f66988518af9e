#include "cudnnctl/loader/fatbin_stream.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/loader/pe_reader.hpp"

namespace cudnnctl {

namespace {

// The bytes of a container header that do not vary: magic 0xBA55ED50, version 1, header size 16.
constexpr std::string_view k_container_signature("\x50\xED\x55\xBA\x01\x00\x10\x00", 8);
constexpr std::size_t k_stream_container_header = 16, k_stream_entry_header = 64;
constexpr std::size_t k_kept_prefix = std::size_t{64} << 10;
constexpr std::uint64_t k_names_window = std::uint64_t{1} << 20;   // kept before the ELF section table
constexpr std::uint64_t k_max_section_table = std::uint64_t{4} << 20;
constexpr std::uint64_t k_zero_tail_cap = std::uint64_t{1} << 16;  // as fatbin_reader.cpp
constexpr std::size_t k_max_failures = 64;

std::uint64_t stream_le(std::string_view b, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(b[at + i])) << (8 * i);
  return v;
}



} // namespace

namespace fatbin_stream_detail {

// A container the scanner walked: where it lies in the file, its entries, the zero bytes that follow it.
struct ScannedContainer {
  std::uint64_t offset = 0, end = 0;
  std::size_t first_entry = 0, entry_count = 0;
  std::uint64_t zeros_after = 0;
};

struct ScanFailure {
  std::uint64_t offset = 0;
  std::string why;
};

enum class ScanStep { search, container, entries, zeros };

} // namespace fatbin_stream_detail

using namespace fatbin_stream_detail;

struct FatbinStreamScanner::State {
  std::string what;
  // bytes fed but not yet consumed: buf[head, size) are the file's bytes from offset `at`
  std::string buf;
  std::size_t head = 0;
  std::uint64_t at = 0, fed = 0, skip = 0;
  ScanStep step = ScanStep::search;
  std::vector<ScannedContainer> containers;
  std::vector<FatbinEntry> entries;
  std::vector<ScanFailure> failures;
  ScannedContainer current;
  bool too_many = false;
  // what is kept for finding the section at the end
  std::string prefix;
  std::optional<std::uint64_t> window_begin;
  std::uint64_t window_end = 0;
  std::string window;

  std::size_t ready() const { return buf.size() - head; }
  std::string_view view() const { return std::string_view(buf).substr(head); }
  void drop(std::size_t n) {
    head += n;
    at += n;
    if (head > (std::size_t{1} << 20) && head * 2 > buf.size()) {
      buf.erase(0, head);
      head = 0;
    }
  }

  void keep(const char* data, std::size_t n);
  void plan_elf_window();
  void fail_candidate(const std::string& why);
  bool step_search();
  bool step_container();
  bool step_entries();
  bool step_zeros();
  void run();
};

// Keeps the prefix and, once the ELF header says where the section table is, the window before and in it.
void FatbinStreamScanner::State::keep(const char* data, std::size_t n) {
  const std::uint64_t begin = fed;
  if (prefix.size() < k_kept_prefix && begin == prefix.size())
    prefix.append(data, std::min<std::size_t>(n, k_kept_prefix - prefix.size()));
  if (!window_begin && prefix.size() >= 64) {
    plan_elf_window();
    if (*window_begin < window_end && *window_begin < begin)
      window = prefix.substr(static_cast<std::size_t>(*window_begin), static_cast<std::size_t>(begin - *window_begin));
  }
  if (window_begin && begin + n > *window_begin && begin < window_end) {
    const auto from = std::max(begin, *window_begin), to = std::min(begin + n, window_end);
    if (from == *window_begin + window.size()) window.append(data + (from - begin), static_cast<std::size_t>(to - from));
  }
  fed += n;
}

// A little-endian ELF file's section table (offset and size from its header); other files keep no window.
void FatbinStreamScanner::State::plan_elf_window() {
  window_begin = 0;
  window_end = 0;
  if (prefix.compare(0, 4, "\x7F" "ELF") != 0 || prefix[5] != 1 || (prefix[4] != 1 && prefix[4] != 2)) return;
  const bool is_64 = prefix[4] == 2;
  const auto shoff = is_64 ? stream_le(prefix, 40, 8) : stream_le(prefix, 32, 4);
  const auto table = is_64 ? stream_le(prefix, 58, 2) * stream_le(prefix, 60, 2) : stream_le(prefix, 46, 2) * stream_le(prefix, 48, 2);
  if (table > k_max_section_table || shoff > UINT64_MAX - table) return;
  window_begin = shoff > k_names_window ? shoff - k_names_window : 0;
  window_end = shoff + table;
}

void FatbinStreamScanner::State::fail_candidate(const std::string& why) {
  if (failures.size() < k_max_failures) failures.push_back({current.offset, why});
  entries.resize(current.first_entry);
  step = ScanStep::search;
}

// Finds the next container signature; keeps the last 7 bytes when there is none yet.
bool FatbinStreamScanner::State::step_search() {
  const auto found = view().find(k_container_signature);
  if (found == std::string_view::npos) {
    const auto keep_tail = std::min(ready(), k_container_signature.size() - 1);
    drop(ready() - keep_tail);
    return false;
  }
  drop(found);
  step = ScanStep::container;
  return true;
}

bool FatbinStreamScanner::State::step_container() {
  if (ready() < k_stream_container_header) return false;
  const auto body = stream_le(view(), 8, 8);
  current = ScannedContainer{at, 0, entries.size(), 0, 0};
  if (body > UINT64_MAX - at - k_stream_container_header) {
    drop(1);
    fail_candidate("a container says it is larger than any file");
    return true;
  }
  current.end = at + k_stream_container_header + body;
  drop(k_stream_container_header);
  step = ScanStep::entries;
  return true;
}

// One entry header read (the fat-binary reader's checks, against the container's end) and its payload skipped.
bool FatbinStreamScanner::State::step_entries() {
  if (at == current.end) {
    current.entry_count = entries.size() - current.first_entry;
    step = ScanStep::zeros;
    return true;
  }
  if (current.end - at < k_stream_entry_header) {
    fail_candidate(fmt::format("the entry header at offset {} is cut short by its container's end", at - current.offset));
    return true;
  }
  if (ready() < k_stream_entry_header) return false;
  const std::string h(view().substr(0, k_stream_entry_header));
  const auto header_size = stream_le(h, 4, 4), payload = stream_le(h, 8, 8);
  if (header_size < k_stream_entry_header || header_size > k_fatbin_max_entry_header || header_size > current.end - at) {
    fail_candidate(fmt::format("the entry at offset {} has a header size of {}", at - current.offset, header_size));
    return true;
  }
  if (payload > current.end - at - header_size) {
    fail_candidate(fmt::format("the entry at offset {} says its code runs past its container", at - current.offset));
    return true;
  }
  auto entry = parse_fatbin_entry(h);
  if (!entry) {
    fail_candidate(entry.error());
    return true;
  }
  if (entries.size() >= k_fatbin_max_entries) {
    too_many = true;
    fail_candidate(fmt::format("it has more than {} entries", k_fatbin_max_entries));
    return true;
  }
  entries.push_back(*entry);
  drop(k_stream_entry_header);
  skip = header_size - k_stream_entry_header + payload;
  return true;
}

// Counts the zero bytes after a container (the padding the reader accepts at a section's end).
bool FatbinStreamScanner::State::step_zeros() {
  const auto v = view();
  std::size_t n = 0;
  while (n < v.size() && v[n] == '\0' && current.zeros_after + n < k_zero_tail_cap) ++n;
  current.zeros_after += n;
  drop(n);
  if (ready() == 0 && current.zeros_after < k_zero_tail_cap) return false;
  if (containers.size() >= k_fatbin_max_entries) too_many = true;  // a file of empty containers: bounded too
  else containers.push_back(current);
  step = ScanStep::search;
  return true;
}

void FatbinStreamScanner::State::run() {
  for (bool more = true; more;) {
    if (skip > 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(skip, ready()));
      drop(n);
      skip -= n;
      if (skip > 0) return;
    }
    switch (step) {
    case ScanStep::search: more = step_search(); break;
    case ScanStep::container: more = step_container(); break;
    case ScanStep::entries: more = step_entries(); break;
    case ScanStep::zeros: more = step_zeros(); break;
    }
  }
}

FatbinStreamScanner::FatbinStreamScanner(std::string what) : state_(std::make_unique<State>()) { state_->what = std::move(what); }
FatbinStreamScanner::~FatbinStreamScanner() = default;

void FatbinStreamScanner::feed(const char* data, std::size_t n) {
  auto& s = *state_;
  s.keep(data, n);
  // payload being skipped is never copied
  const auto skipped = static_cast<std::size_t>(std::min<std::uint64_t>(s.skip, s.ready() == 0 ? n : 0));
  if (s.ready() == 0) {
    s.buf.clear();
    s.head = 0;
  }
  s.skip -= skipped;
  s.at += skipped;
  s.buf.append(data + skipped, n - skipped);
  s.run();
}

namespace {

// A ReadAt over what the scanner kept: the prefix and the window around the ELF section table.
ReadAt kept_reader(const std::string& prefix, std::uint64_t window_begin, const std::string& window) {
  return [&prefix, window_begin, &window](std::uint64_t offset, std::size_t n) -> std::string {
    if (offset < prefix.size() && n <= prefix.size() - offset) return prefix.substr(static_cast<std::size_t>(offset), n);
    if (offset >= window_begin && offset - window_begin < window.size())
      return window.substr(static_cast<std::size_t>(offset - window_begin), n);
    if (offset < prefix.size()) return prefix.substr(static_cast<std::size_t>(offset), n);
    return {};
  };
}

Unexpected<Error> malformed_stream_fatbin(const std::string& what, const std::string& why) {
  return fail(ErrorCode::archive_corrupt, fmt::format("'{}' holds a malformed CUDA fat binary: {}", what, why),
              "cudnnctl could not follow this section's layout: if NVIDIA's `cuobjdump --list-elf` lists its code, this is a gap in cudnnctl (please report it); if cuobjdump fails too, the file is damaged: reinstall it from NVIDIA's archive", what);
}

} // namespace

Result<GpuCode> FatbinStreamScanner::finish() {
  auto& s = *state_;
  if (s.step == ScanStep::zeros && s.containers.size() < k_fatbin_max_entries) s.containers.push_back(s.current);  // ended in its zero tail
  if (s.step == ScanStep::entries) s.fail_candidate("a container runs past the end of the file");
  s.step = ScanStep::search;
  const auto read = kept_reader(s.prefix, s.window_begin.value_or(0), s.window);
  GpuCode code;
  std::optional<FileRange> range;
  if (s.prefix.compare(0, 4, "\x7F" "ELF") == 0) {
    code.section = ".nv_fatbin";
    CUDNNCTL_TRY_ASSIGN(range, find_elf_section(read, code.section, s.what));
  } else if (s.prefix.size() >= 2 && s.prefix[0] == 'M' && s.prefix[1] == 'Z') {
    code.section = ".nv_fatb";
    CUDNNCTL_TRY_ASSIGN(range, find_pe_section(read, code.section, s.what));
  } else {
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' is neither an ELF nor a PE library", s.what),
                "name a cuDNN library (libcudnn_*.so.N or cudnn_*64_N.dll)", s.what);
  }
  if (!range) return GpuCode{};
  code.has_fatbin = true;
  const auto begin = range->offset, end = range->offset + range->size;
  if (end > s.fed) return malformed_stream_fatbin(s.what, "the section runs past the end of the file");
  for (const auto& f : s.failures)
    if (f.offset >= begin && f.offset < end)
      return malformed_stream_fatbin(s.what, fmt::format("at offset {}: {}", f.offset - begin, f.why));
  if (s.too_many)
    return malformed_stream_fatbin(s.what, fmt::format("it has more than {} entries or containers", k_fatbin_max_entries));
  std::uint64_t at = begin, padding = 0;  // padding: the zero bytes that followed the previous container
  for (const auto& c : s.containers) {
    if (c.end <= begin || c.offset >= end) continue;
    // zero padding between two containers, as read_fatbin_section accepts it (never before the first)
    const bool padded = c.offset > at && at > begin && c.offset - at <= std::min(padding, k_fatbin_max_gap) &&
                        (c.offset - begin) % k_fatbin_alignment == 0;
    if (c.offset != at && !padded)
      return malformed_stream_fatbin(s.what, fmt::format("offset {} does not start with a container", at - begin));
    if (c.end > end) return malformed_stream_fatbin(s.what, fmt::format("the container at offset {} runs past the end of the section", at - begin));
    code.entries.insert(code.entries.end(), s.entries.begin() + static_cast<std::ptrdiff_t>(c.first_entry),
                        s.entries.begin() + static_cast<std::ptrdiff_t>(c.first_entry + c.entry_count));
    ++code.containers;
    at = c.end;
    padding = c.zeros_after;
    if (at < end && end - at <= std::min(c.zeros_after, k_zero_tail_cap)) at = end;  // the zero tail
  }
  if (at != end) return malformed_stream_fatbin(s.what, fmt::format("offset {} does not start with a container", at - begin));
  return code;
}

} // namespace cudnnctl
