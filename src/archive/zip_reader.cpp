#include <libdeflate.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <atomic>
#include <memory>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/archive/entry_name.hpp"
#include "cudnnctl/archive/inflater.hpp"
#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/files.hpp"
#include "zip_open.hpp"

namespace cudnnctl {

namespace {

constexpr std::uint32_t k_unix_type_mask = 0170000;
constexpr std::uint32_t k_unix_symlink = 0120000;
constexpr std::uint32_t k_unix_dir = 0040000;
constexpr std::uint32_t k_unix_file = 0100000;

// Compressed bytes per read and inflated bytes per write: 256 KiB measured cheaper than 1 MiB for both
// engines (they stay in the 2 MiB L2 beside the inflater's window; bench/RESULTS.md).
constexpr std::size_t k_zip_in_buffer = std::size_t{256} << 10;
constexpr std::size_t k_zip_out_buffer = std::size_t{256} << 10;

using namespace zip_detail;

// One member's bytes. Deflated members (every member of NVIDIA's archives) are read raw from libzip
// (ZIP_FL_COMPRESSED) and inflated here by the Inflater (ISA-L where the build has it, else zlib), whose
// CRC-32 is computed as it goes: libzip's own decompression layer would add zlib's slow CRC pass.
// Stored members (libzip checks their CRC even when asked for the raw bytes), other methods and
// encrypted members go through libzip's own reading.
class MemberReader {
public:
  struct Failure {
    bool crc = false;
    std::string why;
  };

  MemberReader(zip_t* z, const ArchiveEntry& e, InflaterKind inflater) : m_expected_crc(e.crc32) {
    zip_stat_t st;
    zip_stat_init(&st);
    const bool known = zip_stat_index(z, e.index, ZIP_FL_ENC_RAW, &st) == 0 && (st.valid & ZIP_STAT_COMP_METHOD) &&
                       (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && (st.valid & ZIP_STAT_CRC) && st.encryption_method == ZIP_EM_NONE;
    if (known && st.comp_method == ZIP_CM_DEFLATE) m_mode = Mode::deflated;
    m_file = zip_fopen_index(z, e.index, m_mode == Mode::libzip ? 0 : ZIP_FL_COMPRESSED);
    if (m_file && m_mode == Mode::deflated) {
      m_inflater = Inflater::create(inflater);
      m_in.resize(k_zip_in_buffer);
    }
  }
  ~MemberReader() {
    if (m_file) zip_fclose(m_file);
  }
  MemberReader(const MemberReader&) = delete;
  MemberReader& operator=(const MemberReader&) = delete;

  bool is_open() const { return m_file != nullptr; }

  // bytes read into out (0 at the end, after the CRC check), or -1 with failure() filled in
  std::int64_t read(char* out, std::size_t cap) {
    if (m_mode == Mode::libzip) {
      const zip_int64_t n = zip_fread(m_file, out, cap);
      if (n < 0) {
        const int code = zip_file_get_error(m_file)->zip_err;
        return fail(code == ZIP_ER_CRC, zip_error_text(code));
      }
      m_libzip_crc = libdeflate_crc32(m_libzip_crc, out, static_cast<std::size_t>(n));
      return n;
    }
    if (m_finished) return 0;
    if (m_stream_end) return finish();
    for (;;) {
      if (m_in_pos == m_in_len && !m_input_end) {
        const zip_int64_t n = zip_fread(m_file, m_in.data(), m_in.size());
        if (n < 0) return fail(false, zip_error_text(zip_file_get_error(m_file)->zip_err));
        m_input_end = n == 0;
        m_in_pos = 0;
        m_in_len = static_cast<std::size_t>(n);
      }
      auto step = m_inflater->step(m_in.data() + m_in_pos, m_in_len - m_in_pos, out, cap);
      if (!step) return fail(false, step.error().message);
      m_in_pos += step->consumed;
      if (step->end) m_stream_end = true;
      if (step->produced > 0) return static_cast<std::int64_t>(step->produced);
      if (m_stream_end) return finish();
      if (step->consumed == 0 && m_in_pos == m_in_len && m_input_end) return fail(false, "the compressed data ends early");
      if (step->consumed == 0 && m_in_pos < m_in_len) return fail(false, "the inflater stopped making progress");
    }
  }

  const Failure& failure() const { return m_failure; }
  /// The CRC-32 of the bytes read so far: at the end (read() returned 0), the member's, checked against
  /// the one its zip records (by the inflater's own CRC here, by libzip for the members it reads itself).
  std::uint32_t crc32() const { return m_mode == Mode::libzip ? m_libzip_crc : m_inflater->crc32(); }

private:
  enum class Mode { libzip, deflated };

  std::int64_t fail(bool crc, std::string why) {
    m_failure = {crc, std::move(why)};
    return -1;
  }
  std::int64_t finish() {
    m_finished = true;
    if (m_inflater->crc32() != m_expected_crc) return fail(true, "CRC error");
    return 0;
  }

  Mode m_mode = Mode::libzip;
  zip_file_t* m_file = nullptr;
  std::unique_ptr<Inflater> m_inflater;
  bool m_input_end = false;
  bool m_stream_end = false;
  bool m_finished = false;
  std::vector<char> m_in;
  std::size_t m_in_pos = 0, m_in_len = 0;
  std::uint32_t m_expected_crc = 0;
  std::uint32_t m_libzip_crc = 0;
  Failure m_failure;
};

} // namespace

Result<ArchiveListing> list_zip(const std::string& path, const ReadOptions& options) {
  CUDNNCTL_TRY_ASSIGN(auto zip, open_zip(path, options.arriving));
  zip_t* z = zip.get();
  ArchiveListing listing;
  listing.format = ArchiveFormat::zip;
  const zip_int64_t count = zip_get_num_entries(z, 0);
  listing.entries.reserve(static_cast<std::size_t>(std::max<zip_int64_t>(count, 0)));
  for (zip_int64_t i = 0; i < count; ++i) {
    const auto idx = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(z, idx, ZIP_FL_ENC_RAW, &st) != 0)
      return fail(ErrorCode::archive_corrupt, fmt::format("'{}': entry #{} of the central directory is unreadable", path, i),
                  "download the archive again from NVIDIA", path);
    const std::string raw = st.name ? st.name : "";
    CUDNNCTL_TRY_ASSIGN(auto name, decode_entry_name(raw, options.name_encoding, path));
    ArchiveEntry e;
    e.name = std::move(name);
    e.index = idx;
    e.size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
    e.compressed_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    e.crc32 = (st.valid & ZIP_STAT_CRC) ? st.crc : 0;
    zip_uint8_t opsys = 0;
    zip_uint32_t attr = 0;
    zip_file_get_external_attributes(z, idx, 0, &opsys, &attr);
    const std::uint32_t unix_mode = opsys == ZIP_OPSYS_UNIX ? (attr >> 16) : 0;
    const bool dir_name = !e.name.empty() && (e.name.back() == '/' || e.name.back() == '\\');
    if ((unix_mode & k_unix_type_mask) == k_unix_symlink) {
      e.type = EntryType::symlink;
      CUDNNCTL_TRY_ASSIGN(auto target, read_small_member(z, idx, e.size, path, e.name));
      e.link_target = std::move(target);
    } else if (dir_name || (unix_mode & k_unix_type_mask) == k_unix_dir) {
      e.type = EntryType::directory;
    } else if (unix_mode == 0 || (unix_mode & k_unix_type_mask) == k_unix_file || (unix_mode & k_unix_type_mask) == 0) {
      e.type = EntryType::file;
    } else {
      e.type = EntryType::other;
    }
    e.mode = unix_mode & 0777 ? (unix_mode & 0777) : (e.type == EntryType::directory ? 0755u : 0644u);
    listing.entries.push_back(std::move(e));
  }
  return listing;
}

namespace {

// Every folder a member lives in (and every folder entry), created before any member is written.
Result<void> make_member_folders(const ArchiveListing& listing, const std::string& staging_dir) {
  std::vector<std::string> dirs;
  for (const auto& e : listing.entries) {
    const auto slash = e.name.rfind('/');
    if (e.type == EntryType::directory) dirs.push_back(e.name);
    else if (slash != std::string::npos) dirs.push_back(e.name.substr(0, slash));
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  for (const auto& d : dirs)
    if (auto ok = platform::make_directories(staging_dir + "/" + d); !ok) return ok;
  return {};
}

// Estimated CPU per byte, measured per job on the 9.19 zip (bench/RESULTS.md, round 5): a deflated member
// costs ~1.6 ns per byte out (inflate with its CRC-32, the write), the caller's side job (the archive's
// SHA-256 and its reads) ~0.7 ns per byte read. Only the order matters: the costliest job starts first, so
// the last jobs are small and no core waits at the end behind one long member.
constexpr double k_member_ns_per_byte = 1.6;
constexpr double k_side_job_ns_per_byte = 0.7;

struct ZipJob {
  const ArchiveEntry* member = nullptr;  // null: the caller's side job
  double cost = 0;
};

// The files and the side job, costliest first.
std::vector<ZipJob> jobs_costliest_first(const ArchiveListing& listing, const ExtractOptions& options) {
  std::vector<ZipJob> jobs;
  const double per_byte = k_member_ns_per_byte;
  for (const auto& e : listing.entries)
    if (e.type == EntryType::file) jobs.push_back({&e, per_byte * static_cast<double>(e.size)});
  if (options.side_job.run) jobs.push_back({nullptr, k_side_job_ns_per_byte * static_cast<double>(options.side_job.bytes)});
  // a file still arriving: in archive order (the central directory's, the order the members were written
  // in), so that the workers follow the bytes as they come instead of waiting on a member at the end
  if (options.read.arriving) return jobs;
  std::stable_sort(jobs.begin(), jobs.end(), [](const ZipJob& a, const ZipJob& b) { return a.cost > b.cost; });
  return jobs;
}

// What the workers share: the next member to take, the first error, the bytes written, the members' CRC-32s.
struct ZipJobs {
  std::vector<ZipJob> jobs;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<std::uint64_t> written{0};
  std::mutex mutex;
  std::map<std::string, std::uint32_t> crcs;
  Error first_error;

  void record(Error e) {
    std::lock_guard lock(mutex);
    if (!failed.exchange(true)) first_error = std::move(e);
  }
};

Error member_error(const std::string& path, const ArchiveEntry& e, std::uint64_t got, const MemberReader::Failure& why) {
  return Error{ErrorCode::archive_corrupt,
               why.crc ? fmt::format("'{}': the entry '{}' fails its CRC check after {} of {} bytes", path, e.name, got, e.size)
                       : fmt::format("'{}': the entry '{}' cannot be inflated after {} of {} bytes ({} compressed): {}", path, e.name, got,
                                     e.size, e.compressed_size, why.why),
               "the archive is damaged: download it again from NVIDIA", path};
}

// One member into its file below staging, its CRC-32 checked and kept. Stops early when another worker failed.
Result<void> extract_member(zip_t* z, const ArchiveEntry& e, const std::string& path, const std::string& staging_dir,
                            const ExtractOptions& options, std::vector<char>& buf, ZipJobs& jobs) {
  MemberReader member(z, e, options.inflater);
  if (!member.is_open())
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}': cannot open the entry '{}': {}", path, e.name, zip_error_text(zip_get_error(z)->zip_err)),
                "download the archive again from NVIDIA", path);
  CUDNNCTL_TRY_ASSIGN(auto out, platform::NewFile::create(staging_dir + "/" + e.name, e.mode));
  std::uint64_t got = 0;
  for (;;) {
    const std::int64_t n = member.read(buf.data(), buf.size());
    if (n < 0) return Unexpected<Error>(member_error(path, e, got, member.failure()));
    if (n == 0) break;
    got += static_cast<std::uint64_t>(n);
    if (got > e.size)
      return fail(ErrorCode::archive_too_large, fmt::format("refused '{}': the entry '{}' inflates past its declared size of {} bytes", path, e.name, e.size),
                  "the archive lies about its sizes (a zip bomb): download it again from NVIDIA", path);
    if (auto ok = out.write(buf.data(), static_cast<std::size_t>(n)); !ok) return ok;
    if (options.start_writeback && out.unsubmitted() >= options.writeback_step) out.start_writeback();
    jobs.written.fetch_add(static_cast<std::uint64_t>(n));
    if (options.on_bytes) options.on_bytes(static_cast<std::uint64_t>(n));
    if (jobs.failed.load()) return {};
  }
  if (options.start_writeback) out.start_writeback();
  if (auto ok = out.close(); !ok) return ok;
  if (got != e.size)
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}': the entry '{}' holds {} bytes but declares {}", path, e.name, got, e.size),
                "the archive is damaged: download it again from NVIDIA", path);
  std::lock_guard lock(jobs.mutex);
  jobs.crcs[e.name] = member.crc32();
  return {};
}

// A worker: its own libzip handle, members taken one at a time until none are left or one failed.
void zip_worker(const std::string& path, const std::string& staging_dir, const ExtractOptions& options, ZipJobs& jobs) {
  auto zip = open_zip(path, options.read.arriving);
  if (!zip) return jobs.record(zip.error());
  std::vector<char> buf(k_zip_out_buffer);
  for (;;) {
    if (jobs.failed.load() || (options.cancel && options.cancel->load())) return;
    const std::size_t i = jobs.next.fetch_add(1);
    if (i >= jobs.jobs.size()) return;
    if (!jobs.jobs[i].member) {
      options.side_job.run();
      continue;
    }
    if (auto ok = extract_member(zip->get(), *jobs.jobs[i].member, path, staging_dir, options, buf, jobs); !ok) return jobs.record(ok.error());
  }
}

} // namespace

// the bytes the files' members inflate to, as the central directory declares them (checked while writing)
static std::uint64_t inflated_total(const ArchiveListing& listing) {
  std::uint64_t total = 0;
  for (const auto& e : listing.entries)
    if (e.type == EntryType::file) total += e.size;
  return total;
}

Result<ExtractResult> extract_zip(const std::string& path, const std::string& staging_dir, const ExtractOptions& options) {
  CUDNNCTL_TRY_ASSIGN(auto listing, list_zip(path, options.read));
  CUDNNCTL_TRY(check_listing(listing, options.policy));
  // folders first, then files in parallel, then links
  CUDNNCTL_TRY(make_member_folders(listing, staging_dir));
  if (options.on_total) options.on_total(inflated_total(listing));
  ZipJobs jobs;
  jobs.jobs = jobs_costliest_first(listing, options);
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(jobs.jobs.size(), 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&] { zip_worker(path, staging_dir, options, jobs); });
  zip_worker(path, staging_dir, options, jobs);
  for (auto& t : pool) t.join();
  if (jobs.failed.load()) return Unexpected<Error>(jobs.first_error);
  if (options.cancel && options.cancel->load())
    return fail(ErrorCode::internal, fmt::format("extraction of '{}' was cancelled", path), "", path);

  ExtractResult result;
  for (const auto& e : listing.entries)
    if (e.type == EntryType::symlink)
      CUDNNCTL_TRY(platform::make_symlink(e.link_target, staging_dir + "/" + e.name));
  result.files = static_cast<std::size_t>(std::count_if(jobs.jobs.begin(), jobs.jobs.end(), [](const ZipJob& j) { return j.member; }));
  result.bytes_written = jobs.written.load();
  result.member_crc32 = std::move(jobs.crcs);
  result.listing = std::move(listing);
  return result;
}

Result<void> visit_zip_members(const std::string& path, const std::function<bool(const ArchiveEntry&)>& want,
                               const MemberVisit& visit, const ReadOptions& options) {
  CUDNNCTL_TRY_ASSIGN(auto listing, list_zip(path, options));
  CUDNNCTL_TRY_ASSIGN(auto zip, open_zip(path));
  for (const auto& e : listing.entries) {
    if (e.type != EntryType::file || !want(e)) continue;
    std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file(zip_fopen_index(zip.get(), e.index, 0), &zip_fclose);
    if (!file)
      return fail(ErrorCode::archive_corrupt, fmt::format("'{}': the member '{}' cannot be opened", path, e.name),
                  "download the archive again from NVIDIA", path);
    const MemberPull pull = [&file](char* buf, std::size_t n) -> std::size_t {
      const zip_int64_t got = zip_fread(file.get(), buf, n);
      return got > 0 ? static_cast<std::size_t>(got) : 0;
    };
    if (!visit(e, pull)) break;
  }
  return {};
}

} // namespace cudnnctl
