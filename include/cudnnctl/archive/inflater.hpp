#pragma once
// Raw deflate (zip method 8), streamed through bounded buffers, with the CRC-32 of everything produced.
// Two engines behind one interface: Intel ISA-L's isal_inflate (about 1.6x zlib's speed on cuDNN's
// DLLs, its CRC-32 computed while it inflates) where the build found libisal, and zlib with libdeflate's
// CRC-32 everywhere (the fallback, and the engine of builds without ISA-L). Both give the same bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

enum class InflaterKind { best, zlib, isal };

std::string_view to_string(InflaterKind kind);

/// The engines this build has, fastest first (zlib is always there).
std::vector<InflaterKind> available_inflaters();

class Inflater {
public:
  struct Step {
    std::size_t consumed = 0;  // input bytes used
    std::size_t produced = 0;  // output bytes written
    bool end = false;          // the deflate stream's last block is done and flushed
  };

  /// `best` picks the first of available_inflaters(); asking for an engine this build lacks gives zlib.
  static std::unique_ptr<Inflater> create(InflaterKind kind = InflaterKind::best);
  virtual ~Inflater() = default;

  /// Inflates from [in, in+in_len) into [out, out+out_cap). A step that neither consumes nor produces
  /// needs more input; once the input is exhausted that means the stream was cut short. Errors are
  /// archive_corrupt with the engine's reason.
  virtual Result<Step> step(const void* in, std::size_t in_len, void* out, std::size_t out_cap) = 0;
  /// CRC-32 (zip's polynomial) of all the output so far.
  virtual std::uint32_t crc32() const = 0;
  virtual InflaterKind kind() const = 0;
};

} // namespace cudnnctl
