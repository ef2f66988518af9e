// Reading a file in pieces (see the header).
#include "cudnnctl/base/file_chunks.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {
Unexpected<Error> open_failed(const std::string& path, int e) {
  log::debug("open for reading {}: {}", path, std::strerror(e));
  return fail(e == ENOENT ? ErrorCode::file_not_found : ErrorCode::io, fmt::format("cannot open '{}': {}", path, std::strerror(e)),
              "check the path and its permissions", path);
}
} // namespace

Result<std::uint64_t> read_file_chunks(const std::string& path, const std::function<void(const char*, std::size_t)>& take,
                                       const ProgressFn& progress) {
  const auto file = path_from_utf8(path);  // the UTF-8 seam: a narrow name is the ANSI code page on Windows
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return open_failed(path, ENOENT);
  // A buffer of our own, not an unbuffered stream: libc++ (the portable build's C++ library) reads an
  // unbuffered filebuf 4 bytes per system call; libstdc++ still reads requests larger than it straight into buf.
  std::vector<char> stream_buffer(1 << 16);
  std::ifstream in;
  in.rdbuf()->pubsetbuf(stream_buffer.data(), static_cast<std::streamsize>(stream_buffer.size()));
  errno = 0;
  in.open(file, std::ios::binary);
  if (!in) return open_failed(path, errno ? errno : EACCES);
  log::debug("open for reading {}", path);
  const auto size = std::filesystem::file_size(file, ec);
  const std::uint64_t total = ec ? 0 : size;
  std::vector<char> buf(1 << 18);
  std::uint64_t done = 0;
  for (;;) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n > 0) {
      take(buf.data(), n);
      done += n;
      if (progress) progress(done, total);
    }
    if (in.bad()) return fail(ErrorCode::io, fmt::format("read error in '{}' after {} bytes", path, done), "", path);
    if (n < buf.size()) return done;
  }
}

} // namespace cudnnctl
