#pragma once
// The pure part of a ranged download: which byte ranges to ask for, how many connections, and which bytes
// have arrived (merged extents; the contiguous prefix from byte 0 is what SHA-256 may take next).
#include <cstdint>
#include <map>
#include <vector>

namespace cudnnctl {

/// Bytes first..last, both included (an HTTP Range's terms).
struct ByteRange {
  std::uint64_t first = 0, last = 0;
  std::uint64_t size() const { return last - first + 1; }
  bool operator==(const ByteRange&) const = default;
};

/// Disjoint byte extents [begin, end), merged as they are added.
class ExtentSet {
public:
  void add(std::uint64_t begin, std::uint64_t end);
  void clear() { m_extents.clear(); }
  /// The bytes present from byte 0 on without a gap.
  std::uint64_t prefix() const;
  /// The first byte at or after `from` that is not present.
  std::uint64_t first_gap(std::uint64_t from = 0) const;
  std::uint64_t bytes() const;
  bool covers(std::uint64_t begin, std::uint64_t end) const;
  /// begin -> end, in order.
  const std::map<std::uint64_t, std::uint64_t>& extents() const { return m_extents; }

private:
  std::map<std::uint64_t, std::uint64_t> m_extents;
};

/// The ranges still missing from a file of `total` bytes, cut at multiples of `chunk` (the last shorter),
/// in file order; what `done` covers is left out (a chunk partly present keeps only its missing pieces).
std::vector<ByteRange> plan_ranges(std::uint64_t total, std::uint64_t chunk, const ExtentSet& done);

/// Moves the plan's last range (the end of the file) to the front: asked first, as a zip's central directory is.
void put_tail_first(std::vector<ByteRange>& plan);

/// Splits each of the plan's last `connections` ranges (never the first: the tail a zip asks first) into up to
/// 4 pieces of at least `min_piece` bytes, order kept: when the last ranges are taken, a connection that ends
/// early waits for a short piece, not a whole chunk.
void taper_tail(std::vector<ByteRange>& plan, int connections, std::uint64_t min_piece);

/// How many connections to open: `asked` (> 0, --connections) or, for 0, adaptive: up to 8; never more
/// than there are ranges, at least 1, at most 32.
int choose_connections(int asked, std::size_t ranges);

} // namespace cudnnctl
