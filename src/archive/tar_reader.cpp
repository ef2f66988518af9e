#include <archive.h>
#include <archive_entry.h>
#include <libdeflate.h>
#include <lzma.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <thread>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/archive/entry_name.hpp"
#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveCloser>;

std::string_view compression(ArchiveFormat f) { return f == ArchiveFormat::tar_xz ? "xz" : "gzip"; }

Unexpected<Error> stream_error(archive* a, const std::string& path, ArchiveFormat f, const std::string& where) {
  const char* msg = archive_error_string(a);
  return fail(ErrorCode::archive_corrupt,
              fmt::format("'{}': the {} stream is damaged {}: {}", path, compression(f), where, msg ? msg : "unknown error"),
              "the archive is truncated or corrupt: download it again from NVIDIA (the catalog size shows how long it must be)", path);
}

// xz decoded with liblzma's multi-threaded decoder (archives written by xz -T0 hold many blocks), handed
// to libarchive as a plain tar stream. Used only when more than one thread is asked for: it is faster
// but buffers whole blocks per thread (~130 MiB peak with two), while libarchive's own single-threaded
// xz filter stays near 25 MiB whatever the archive size.
class XzSource {
public:
  XzSource(const std::string& path, unsigned threads) : m_file(platform::open_stdio_file(path, "rb")), m_in(1 << 20), m_out(1 << 20) {
    lzma_mt mt{};
    mt.flags = LZMA_CONCATENATED;
    mt.threads = threads;
    mt.memlimit_threading = UINT64_MAX;  // each thread buffers a whole block (~24 MiB out + its input)
    mt.memlimit_stop = UINT64_MAX;
    m_ready = m_file && lzma_stream_decoder_mt(&m_strm, &mt) == LZMA_OK;
  }
  ~XzSource() {
    lzma_end(&m_strm);
    if (m_file) std::fclose(m_file);
  }
  XzSource(const XzSource&) = delete;
  XzSource& operator=(const XzSource&) = delete;
  bool ready() const { return m_ready; }
  const std::string& error() const { return m_error; }

  static la_ssize_t read(archive* a, void* self, const void** buffer) {
    auto* s = static_cast<XzSource*>(self);
    const auto n = s->decode();
    if (n < 0) archive_set_error(a, -1, "%s", s->m_error.c_str());
    *buffer = s->m_out.data();
    return n;
  }

private:
  la_ssize_t decode() {
    m_strm.next_out = m_out.data();
    m_strm.avail_out = m_out.size();
    while (m_strm.avail_out == m_out.size() && !m_done) {
      lzma_action action = LZMA_RUN;
      if (m_strm.avail_in == 0 && !m_eof) {
        m_strm.next_in = m_in.data();
        m_strm.avail_in = std::fread(m_in.data(), 1, m_in.size(), m_file);
        if (std::ferror(m_file)) return fail_with("read error");
        if (m_strm.avail_in < m_in.size()) m_eof = true;
      }
      if (m_eof && m_strm.avail_in == 0) action = LZMA_FINISH;
      const lzma_ret r = lzma_code(&m_strm, action);
      if (r == LZMA_STREAM_END) m_done = true;
      else if (r == LZMA_BUF_ERROR && m_eof) return fail_with("truncated xz input (the file ends inside the compressed stream)");
      else if (r == LZMA_DATA_ERROR) return fail_with("corrupt xz data");
      else if (r == LZMA_FORMAT_ERROR) return fail_with("not xz data");
      else if (r != LZMA_OK && r != LZMA_BUF_ERROR) return fail_with(fmt::format("xz decoder error {}", static_cast<int>(r)));
    }
    return static_cast<la_ssize_t>(m_out.size() - m_strm.avail_out);
  }
  la_ssize_t fail_with(std::string what) {
    m_error = std::move(what);
    return -1;
  }
  std::FILE* m_file;
  lzma_stream m_strm = LZMA_STREAM_INIT;
  std::vector<std::uint8_t> m_in, m_out;
  bool m_ready = false, m_eof = false, m_done = false;
  std::string m_error;
};

// A file still arriving, read in order: each block waits until its bytes are on the disk (the stream
// decodes as its prefix grows).
class ArrivingTarSource {
public:
  // small blocks: a block waits until all its bytes are there, so the decoder follows the prefix closely
  ArrivingTarSource(platform::ReadOnlyFile file, const ArrivingInput& arriving) : m_file(std::move(file)), m_arriving(arriving), m_buf(16 << 10) {}

  static la_ssize_t read(archive* a, void* self, const void** buffer) {
    auto* s = static_cast<ArrivingTarSource*>(self);
    *buffer = s->m_buf.data();
    const auto want = std::min<std::uint64_t>(s->m_buf.size(), s->m_arriving.size - s->m_pos);
    if (want == 0) return 0;
    if (!s->m_arriving.wait(s->m_pos, s->m_pos + want)) {
      archive_set_error(a, EIO, "the download stopped before these bytes arrived");
      return -1;
    }
    const auto n = s->m_file.read_at(s->m_pos, s->m_buf.data(), static_cast<std::size_t>(want));
    if (n < 0) archive_set_error(a, EIO, "read error");
    if (n > 0) s->m_pos += static_cast<std::uint64_t>(n);
    return n;
  }

private:
  platform::ReadOnlyFile m_file;
  ArrivingInput m_arriving;
  std::vector<char> m_buf;
  std::uint64_t m_pos = 0;
};

struct TarStream {
  std::unique_ptr<XzSource> xz;  // outlives the reader that pulls from it (declared first, destroyed last)
  std::unique_ptr<ArrivingTarSource> arriving;
  ArchivePtr reader;
  ::archive* get() const { return reader.get(); }
};

Result<TarStream> open_tar(const std::string& path, ArchiveFormat format, unsigned xz_threads, const ArrivingInput& arriving = {}) {
  TarStream t{nullptr, nullptr, ArchivePtr(archive_read_new())};
  archive_read_support_format_tar(t.get());
  archive_read_support_format_gnutar(t.get());
  int r = ARCHIVE_FATAL;
  if (arriving) {
    CUDNNCTL_TRY_ASSIGN(auto file, platform::ReadOnlyFile::open_while_written(path));
    t.arriving = std::make_unique<ArrivingTarSource>(std::move(file), arriving);
    if (format == ArchiveFormat::tar_xz) archive_read_support_filter_xz(t.get());
    else archive_read_support_filter_gzip(t.get());
    r = archive_read_open(t.get(), t.arriving.get(), nullptr, &ArrivingTarSource::read, nullptr);
  } else if (format == ArchiveFormat::tar_xz && xz_threads > 1) {
    t.xz = std::make_unique<XzSource>(path, xz_threads);
    if (!t.xz->ready())
      return fail(ErrorCode::io, fmt::format("cannot open '{}' for xz decoding", path), "check the path and its permissions", path);
    r = archive_read_open(t.get(), t.xz.get(), nullptr, &XzSource::read, nullptr);
  } else {
    if (format == ArchiveFormat::tar_xz) archive_read_support_filter_xz(t.get());
    else archive_read_support_filter_gzip(t.get());
    r = archive_read_open_filename(t.get(), path.c_str(), 1 << 20);
  }
  if (r != ARCHIVE_OK) return stream_error(t.get(), path, format, "at its start");
  return t;
}

Result<ArchiveEntry> describe(archive_entry* ae, const ReadOptions& options, const std::string& path, std::uint64_t index) {
  const char* utf8 = options.name_encoding.empty() ? archive_entry_pathname_utf8(ae) : nullptr;
  const char* raw = utf8 ? utf8 : archive_entry_pathname(ae);
  CUDNNCTL_TRY_ASSIGN(auto name, decode_entry_name(raw ? raw : "", options.name_encoding, path));
  ArchiveEntry e;
  e.name = std::move(name);
  e.index = index;
  e.size = archive_entry_size_is_set(ae) ? static_cast<std::uint64_t>(archive_entry_size(ae)) : 0;
  e.mode = static_cast<std::uint32_t>(archive_entry_perm(ae)) & 0777;
  if (const char* hard = archive_entry_hardlink(ae)) {
    e.type = EntryType::hardlink;
    e.link_target = hard;
    e.size = 0;
    return e;
  }
  switch (archive_entry_filetype(ae)) {
  case AE_IFREG: e.type = EntryType::file; break;
  case AE_IFDIR: e.type = EntryType::directory; break;
  case AE_IFLNK: {
    e.type = EntryType::symlink;
    const char* t = archive_entry_symlink(ae);
    e.link_target = t ? t : "";
    e.size = 0;
    break;
  }
  default: e.type = EntryType::other; break;
  }
  if (archive_entry_sparse_count(ae) > 0) e.type = EntryType::other;
  return e;
}

} // namespace

Result<ArchiveListing> list_tar(const std::string& path, ArchiveFormat format, const ReadOptions& options) {
  CUDNNCTL_TRY_ASSIGN(auto a, open_tar(path, format, 1));
  ArchiveListing listing;
  listing.format = format;
  archive_entry* ae = nullptr;
  for (std::uint64_t i = 0;; ++i) {
    const int r = archive_read_next_header(a.get(), &ae);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN)
      return stream_error(a.get(), path, format,
                          listing.entries.empty() ? std::string("before the first entry")
                                                  : fmt::format("after the entry '{}'", listing.entries.back().name));
    CUDNNCTL_TRY_ASSIGN(auto e, describe(ae, options, path, i));
    if (archive_read_data_skip(a.get()) < ARCHIVE_WARN)
      return stream_error(a.get(), path, format, fmt::format("inside the entry '{}' ({} bytes declared)", e.name, e.size));
    listing.entries.push_back(std::move(e));
  }
  return listing;
}

// The archive's bytes read so far, reported as they grow: what a tar stream's progress counts, because
// only the compressed size (the file's) is known before the stream is read to its end.
namespace {
struct ReadProgress {
  archive* a;
  const ExtractOptions& options;
  std::uint64_t reported = 0;
  void update() {
    if (!options.on_bytes) return;
    const auto n = archive_filter_bytes(a, -1);
    if (n <= 0 || static_cast<std::uint64_t>(n) <= reported) return;
    options.on_bytes(static_cast<std::uint64_t>(n) - reported);
    reported = static_cast<std::uint64_t>(n);
  }
};
// The archive's links, made after every file so that nothing is written through one: a symbolic link as
// it is (the safety checker admitted its target), a hard link as a copy of its target (a file of this archive).
Result<void> make_deferred_links(const std::string& path, const std::string& staging_dir, const std::vector<ArchiveEntry>& deferred) {
  for (const auto& e : deferred) {
    const auto slash = e.name.rfind('/');
    if (slash != std::string::npos) CUDNNCTL_TRY(platform::make_directories(staging_dir + "/" + e.name.substr(0, slash)));
    if (e.type == EntryType::symlink) {
      CUDNNCTL_TRY(platform::make_symlink(e.link_target, staging_dir + "/" + e.name));
      continue;
    }
    std::error_code ec;
    std::filesystem::copy_file(staging_dir + "/" + normalise_entry_path(e.link_target), staging_dir + "/" + e.name, ec);
    if (ec) return fail(ErrorCode::io, fmt::format("cannot copy '{}' for the hard link '{}': {}", e.link_target, e.name, ec.message()), "", path);
  }
  return {};
}

} // namespace

Result<ExtractResult> extract_tar(const std::string& path, ArchiveFormat format, const std::string& staging_dir,
                                  const ExtractOptions& options) {
  // 0 (auto): one thread, bounded memory; a file still arriving: libarchive's own decoder over its prefix
  CUDNNCTL_TRY_ASSIGN(auto a, open_tar(path, format, options.threads, options.read.arriving));
  SafetyChecker checker(options.policy);
  ReadProgress progress{a.get(), options};
  if (options.on_total && options.read.arriving) options.on_total(options.read.arriving.size);
  else if (options.on_total)
    if (auto size = platform::file_size(path)) options.on_total(*size);
  ExtractResult result;
  result.listing.format = format;
  std::vector<ArchiveEntry> deferred;  // links are made after every file, so nothing is written through one
  archive_entry* ae = nullptr;
  for (std::uint64_t i = 0;; ++i) {
    if (options.cancel && options.cancel->load())
      return fail(ErrorCode::internal, fmt::format("extraction of '{}' was cancelled", path), "", path);
    const int r = archive_read_next_header(a.get(), &ae);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN)
      return stream_error(a.get(), path, format,
                          result.listing.entries.empty() ? std::string("before the first entry")
                                                         : fmt::format("after the entry '{}'", result.listing.entries.back().name));
    CUDNNCTL_TRY_ASSIGN(auto e, describe(ae, options.read, path, i));
    CUDNNCTL_TRY(checker.admit(e));
    const std::string target = staging_dir + "/" + e.name;
    const auto slash = e.name.rfind('/');
    if (e.type == EntryType::directory) {
      CUDNNCTL_TRY(platform::make_directories(target));
    } else if (e.type == EntryType::file) {
      if (slash != std::string::npos)
        CUDNNCTL_TRY(platform::make_directories(staging_dir + "/" + e.name.substr(0, slash)));
      CUDNNCTL_TRY_ASSIGN(auto out, platform::NewFile::create(target, e.mode ? e.mode : 0644));
      std::uint64_t got = 0;
      std::uint32_t crc = 0;
      for (;;) {
        const void* block = nullptr;
        std::size_t size = 0;
        la_int64_t offset = 0;
        const int rr = archive_read_data_block(a.get(), &block, &size, &offset);
        if (rr == ARCHIVE_EOF) break;
        if (rr < ARCHIVE_WARN)
          return stream_error(a.get(), path, format, fmt::format("inside the entry '{}' after {} of {} bytes", e.name, got, e.size));
        if (static_cast<std::uint64_t>(offset) != got)
          return fail(ErrorCode::archive_hostile, fmt::format("refused '{}': the entry '{}' is sparse", path, e.name),
                      "NVIDIA's archives have no sparse members: download the archive again", path);
        got += size;
        if (got > e.size || checker.declared_total() > options.policy.max_total_size)
          return fail(ErrorCode::archive_too_large,
                      fmt::format("refused '{}': the entry '{}' holds more than its declared {} bytes", path, e.name, e.size),
                      "download the archive again from NVIDIA", path);
        CUDNNCTL_TRY(out.write(block, size));
        if (options.start_writeback && out.unsubmitted() >= options.writeback_step) out.start_writeback();
        crc = libdeflate_crc32(crc, block, size);
        progress.update();
      }
      if (options.start_writeback) out.start_writeback();
      CUDNNCTL_TRY(out.close());
      result.member_crc32[e.name] = crc;
      result.bytes_written += got;
      ++result.files;
    } else {
      deferred.push_back(e);
    }
    result.listing.entries.push_back(std::move(e));
  }
  CUDNNCTL_TRY(checker.finish());
  CUDNNCTL_TRY(make_deferred_links(path, staging_dir, deferred));
  return result;
}

Result<void> visit_tar_members(const std::string& path, ArchiveFormat format, const std::function<bool(const ArchiveEntry&)>& want,
                               const MemberVisit& visit, const ReadOptions& options) {
  CUDNNCTL_TRY_ASSIGN(auto a, open_tar(path, format, 1));
  archive_entry* ae = nullptr;
  for (std::uint64_t i = 0;; ++i) {
    const int r = archive_read_next_header(a.get(), &ae);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN) return stream_error(a.get(), path, format, fmt::format("at entry #{}", i));
    CUDNNCTL_TRY_ASSIGN(auto e, describe(ae, options, path, i));
    if (e.type != EntryType::file || !want(e)) continue;  // the next header skips the data
    const MemberPull pull = [&a](char* buf, std::size_t n) -> std::size_t {
      const auto got = archive_read_data(a.get(), buf, n);
      return got > 0 ? static_cast<std::size_t>(got) : 0;
    };
    if (!visit(e, pull)) break;
  }
  return {};
}

} // namespace cudnnctl
