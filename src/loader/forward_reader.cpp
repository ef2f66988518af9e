#include "cudnnctl/loader/forward_reader.hpp"

#include <algorithm>
#include <string>

namespace cudnnctl {

namespace {

struct ForwardState {
  ForwardPull pull;
  std::size_t keep = 0;
  std::string prefix;     // bytes [0, prefix.size()) of the stream, at most `keep`
  std::uint64_t pos = 0;  // bytes pulled so far
  bool ended = false;

  // Pulls the next up to n bytes, keeping what falls inside the prefix.
  std::string next(std::size_t n) {
    std::string out(n, '\0');
    std::size_t got = 0;
    while (got < n && !ended) {
      const auto r = pull(out.data() + got, n - got);
      if (r == 0) ended = true;
      got += r;
    }
    out.resize(got);
    if (pos < keep) prefix.append(out, 0, static_cast<std::size_t>(std::min<std::uint64_t>(got, keep - pos)));
    pos += got;
    return out;
  }

  std::string read(std::uint64_t offset, std::size_t n) {
    if (offset + n <= prefix.size()) return prefix.substr(static_cast<std::size_t>(offset), n);
    if (offset < pos) {
      if (offset >= prefix.size() || pos != prefix.size()) return {};  // behind us and not kept
      std::string head = prefix.substr(static_cast<std::size_t>(offset));
      return head + next(n - head.size());
    }
    constexpr std::size_t k_chunk = std::size_t{1} << 20;
    while (pos < offset && !ended) next(static_cast<std::size_t>(std::min<std::uint64_t>(offset - pos, k_chunk)));
    if (pos < offset) return {};
    return next(n);
  }
};

} // namespace

ReadAt forward_reader(ForwardPull pull, std::size_t keep) {
  auto state = std::make_shared<ForwardState>();
  state->pull = std::move(pull);
  state->keep = keep;
  return [state](std::uint64_t offset, std::size_t n) { return state->read(offset, n); };
}

} // namespace cudnnctl
