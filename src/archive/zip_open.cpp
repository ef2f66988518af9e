#include "zip_open.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/platform/files.hpp"

namespace cudnnctl::zip_detail {

std::string zip_error_text(int code) {
  zip_error_t err;
  zip_error_init_with_code(&err, code);
  std::string s = zip_error_strerror(&err);
  zip_error_fini(&err);
  return s;
}

namespace {

// A libzip source over one file with a 1 MiB read-ahead buffer: libzip's own file source asks for a
// few KiB at a time, which costs a seek and a read system call per request. Large reads (a member's
// compressed bytes) bypass the buffer.
class BufferedSource {
  static constexpr zip_uint64_t k_direct_read = 64 << 10;

public:
  static zip_source_t* create(platform::ReadOnlyFile file, const ArrivingInput& arriving, zip_error_t* error) {
    auto* self = new BufferedSource(std::move(file), arriving);
    zip_source_t* src = zip_source_function_create(&BufferedSource::callback, self, error);
    if (!src) delete self;
    return src;
  }

private:
  BufferedSource(platform::ReadOnlyFile file, const ArrivingInput& arriving)
      : m_file(std::move(file)), m_arriving(arriving), m_size(arriving ? arriving.size : m_file.size()), m_buffer(1 << 20) {
    zip_error_init(&m_error);
  }
  ~BufferedSource() { zip_error_fini(&m_error); }

  static zip_int64_t callback(void* state, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    auto* s = static_cast<BufferedSource*>(state);
    switch (cmd) {
    case ZIP_SOURCE_OPEN: s->m_pos = 0; return 0;
    case ZIP_SOURCE_READ: return s->read(static_cast<char*>(data), len);
    case ZIP_SOURCE_CLOSE: return 0;
    case ZIP_SOURCE_STAT: {
      auto* st = static_cast<zip_stat_t*>(data);
      zip_stat_init(st);
      st->size = s->m_size;
      st->valid |= ZIP_STAT_SIZE;
      return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR: return zip_error_to_data(&s->m_error, data, len);
    case ZIP_SOURCE_FREE: delete s; return 0;
    case ZIP_SOURCE_SEEK: {
      const zip_int64_t to = zip_source_seek_compute_offset(s->m_pos, s->m_size, data, len, &s->m_error);
      if (to < 0) return -1;
      s->m_pos = static_cast<std::uint64_t>(to);
      return 0;
    }
    case ZIP_SOURCE_TELL: return static_cast<zip_int64_t>(s->m_pos);
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                                            ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS, -1);
    default: zip_error_set(&s->m_error, ZIP_ER_OPNOTSUPP, 0); return -1;
    }
  }

  zip_int64_t read(char* out, zip_uint64_t len) {
    zip_uint64_t done = 0;
    while (done < len && m_pos < m_size) {
      if ((m_pos < m_buf_start || m_pos >= m_buf_start + m_buf_len) && len - done >= k_direct_read) {
        // a member's compressed bytes: straight into the caller's memory, no copy through the buffer
        if (!arrived(m_pos, len - done)) return -1;
        const auto n = m_file.read_at(m_pos, out + done, len - done);
        if (n < 0) {
          zip_error_set(&m_error, ZIP_ER_READ, errno);
          return -1;
        }
        if (n == 0) break;
        done += static_cast<zip_uint64_t>(n);
        m_pos += static_cast<std::uint64_t>(n);
        continue;
      }
      if (m_pos < m_buf_start || m_pos >= m_buf_start + m_buf_len) {
        // a file still arriving: no read-ahead past what is asked (it would wait for bytes not needed yet)
        const auto want = m_arriving ? std::min<zip_uint64_t>(m_buffer.size(), len - done) : m_buffer.size();
        if (!arrived(m_pos, want)) return -1;
        const auto n = m_file.read_at(m_pos, m_buffer.data(), static_cast<std::size_t>(want));
        if (n < 0) {
          zip_error_set(&m_error, ZIP_ER_READ, errno);
          return -1;
        }
        if (n == 0) break;
        m_buf_start = m_pos;
        m_buf_len = static_cast<std::uint64_t>(n);
      }
      const auto off = m_pos - m_buf_start;
      const auto take = std::min<zip_uint64_t>(len - done, m_buf_len - off);
      std::memcpy(out + done, m_buffer.data() + off, take);
      done += take;
      m_pos += take;
    }
    return static_cast<zip_int64_t>(done);
  }

  // A file still arriving: wait until the bytes of this read are on the disk (up to its final size).
  bool arrived(std::uint64_t at, std::uint64_t n) {
    if (!m_arriving || m_arriving.wait(at, std::min(m_size, at + n))) return true;
    zip_error_set(&m_error, ZIP_ER_READ, EIO);
    return false;
  }

  platform::ReadOnlyFile m_file;
  ArrivingInput m_arriving;
  std::uint64_t m_size;
  std::vector<char> m_buffer;
  std::uint64_t m_pos = 0, m_buf_start = 0, m_buf_len = 0;
  zip_error_t m_error;
};

} // namespace

Result<ZipPtr> open_zip(const std::string& path, const ArrivingInput& arriving) {
  int code = 0;
  // a file still arriving is being written by the download meanwhile
  CUDNNCTL_TRY_ASSIGN(auto file, arriving ? platform::ReadOnlyFile::open_while_written(path) : platform::ReadOnlyFile::open(path));
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = BufferedSource::create(std::move(file), arriving, &error);
  zip_t* z = src ? zip_open_from_source(src, ZIP_RDONLY, &error) : nullptr;
  code = zip_error_code_zip(&error);
  zip_error_fini(&error);
  if (z) return ZipPtr(z);
  if (src) zip_source_free(src);
  const auto size = platform::file_size(path);
  if (code == ZIP_ER_NOZIP)
    return fail(ErrorCode::archive_corrupt,
                fmt::format("'{}' is a truncated zip: its end-of-central-directory record is missing ({} bytes on disk)", path,
                            size ? *size : 0),
                "the download was cut off: download the archive again (the catalog size shows how long it must be)", path);
  if (code == ZIP_ER_INCONS)
    return fail(ErrorCode::archive_corrupt,
                fmt::format("'{}' is an inconsistent zip: its central directory does not match its contents", path),
                "download the archive again from NVIDIA", path);
  if (code == ZIP_ER_OPEN || code == ZIP_ER_READ || code == ZIP_ER_NOENT)
    return fail(code == ZIP_ER_NOENT ? ErrorCode::file_not_found : ErrorCode::io,
                fmt::format("cannot read '{}': {}", path, zip_error_text(code)), "check the path and its permissions", path);
  return fail(ErrorCode::archive_corrupt, fmt::format("'{}' cannot be opened as a zip: {}", path, zip_error_text(code)),
              "download the archive again from NVIDIA", path);
}

Result<std::string> read_small_member(zip_t* z, zip_uint64_t index, std::uint64_t size, const std::string& path, const std::string& name) {
  if (size > 4096)
    return fail(ErrorCode::archive_hostile, fmt::format("refused '{}': the link '{}' has a {}-byte target", path, name, size),
                "download the archive again from NVIDIA", path);
  zip_file_t* f = zip_fopen_index(z, index, 0);
  if (!f) return fail(ErrorCode::archive_corrupt, fmt::format("'{}': cannot read the entry '{}'", path, name), "", path);
  std::string out(size, '\0');
  const auto n = zip_fread(f, out.data(), size);
  zip_fclose(f);
  if (n < 0 || static_cast<std::uint64_t>(n) != size)
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}': the entry '{}' is damaged", path, name), "download the archive again", path);
  return out;
}

} // namespace cudnnctl::zip_detail
