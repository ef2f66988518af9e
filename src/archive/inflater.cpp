#include "cudnnctl/archive/inflater.hpp"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>

#include <fmt/format.h>

#if CUDNNCTL_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace cudnnctl {

namespace {

// both engines count in 32 bits: one step never offers them more than 1 GiB
constexpr std::size_t k_step_max = std::size_t{1} << 30;

Unexpected<Error> inflate_error(std::string why) { return fail(ErrorCode::archive_corrupt, std::move(why)); }

// zlib's inflate, checked with libdeflate's CRC-32 (several times faster than zlib's own crc32).
class ZlibInflater final : public Inflater {
public:
  ZlibInflater() { m_ready = inflateInit2(&m_zs, -MAX_WBITS) == Z_OK; }
  ~ZlibInflater() override {
    if (m_ready) inflateEnd(&m_zs);
  }
  ZlibInflater(const ZlibInflater&) = delete;
  ZlibInflater& operator=(const ZlibInflater&) = delete;

  Result<Step> step(const void* in, std::size_t in_len, void* out, std::size_t out_cap) override {
    if (!m_ready) return inflate_error("zlib could not start (out of memory)");
    if (m_end) return Step{0, 0, true};
    const auto offered_in = static_cast<uInt>(std::min(in_len, k_step_max));
    const auto offered_out = static_cast<uInt>(std::min(out_cap, k_step_max));
    m_zs.next_in = static_cast<Bytef*>(const_cast<void*>(in));
    m_zs.avail_in = offered_in;
    m_zs.next_out = static_cast<Bytef*>(out);
    m_zs.avail_out = offered_out;
    const int r = inflate(&m_zs, Z_NO_FLUSH);
    if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
      return inflate_error(m_zs.msg ? m_zs.msg : "the compressed data is invalid");
    Step s{offered_in - m_zs.avail_in, offered_out - m_zs.avail_out, r == Z_STREAM_END};
    m_crc = libdeflate_crc32(m_crc, out, s.produced);
    m_end = s.end;
    return s;
  }
  std::uint32_t crc32() const override { return m_crc; }
  InflaterKind kind() const override { return InflaterKind::zlib; }

private:
  z_stream m_zs{};
  bool m_ready = false;
  bool m_end = false;
  std::uint32_t m_crc = 0;
};

#if CUDNNCTL_HAVE_ISAL
// ISA-L's isal_inflate on a raw deflate stream; ISAL_GZIP_NO_HDR makes it keep gzip's CRC-32 (the
// same polynomial as zip's) of its output as it goes, with no header or trailer expected.
class IsalInflater final : public Inflater {
public:
  IsalInflater() : m_state(std::make_unique<inflate_state>()) {
    isal_inflate_init(m_state.get());
    m_state->crc_flag = ISAL_GZIP_NO_HDR;
  }

  Result<Step> step(const void* in, std::size_t in_len, void* out, std::size_t out_cap) override {
    inflate_state& st = *m_state;
    if (st.block_state == ISAL_BLOCK_FINISH) return Step{0, 0, true};
    const auto offered_in = static_cast<std::uint32_t>(std::min(in_len, k_step_max));
    const auto offered_out = static_cast<std::uint32_t>(std::min(out_cap, k_step_max));
    st.next_in = static_cast<std::uint8_t*>(const_cast<void*>(in));
    st.avail_in = offered_in;
    st.next_out = static_cast<std::uint8_t*>(out);
    st.avail_out = offered_out;
    const int r = isal_inflate(&st);
    if (r < 0) return inflate_error(reason(r));
    return Step{offered_in - st.avail_in, offered_out - st.avail_out, st.block_state == ISAL_BLOCK_FINISH};
  }
  std::uint32_t crc32() const override { return m_state->crc; }
  InflaterKind kind() const override { return InflaterKind::isal; }

private:
  static std::string reason(int code) {
    switch (code) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    default: return fmt::format("the compressed data is invalid (ISA-L error {})", code);
    }
  }

  std::unique_ptr<inflate_state> m_state;  // about 40 KiB: on the heap
};
#endif

} // namespace

std::string_view to_string(InflaterKind kind) {
  switch (kind) {
  case InflaterKind::best: return "best";
  case InflaterKind::zlib: return "zlib";
  case InflaterKind::isal: return "isal";
  }
  return "zlib";
}

std::vector<InflaterKind> available_inflaters() {
#if CUDNNCTL_HAVE_ISAL
  return {InflaterKind::isal, InflaterKind::zlib};
#else
  return {InflaterKind::zlib};
#endif
}

std::unique_ptr<Inflater> Inflater::create(InflaterKind kind) {
  if (kind == InflaterKind::best) kind = available_inflaters().front();
#if CUDNNCTL_HAVE_ISAL
  if (kind == InflaterKind::isal) return std::make_unique<IsalInflater>();
#endif
  return std::make_unique<ZlibInflater>();
}

} // namespace cudnnctl
