// install VERSION: the archive inflates into staging while it downloads (see the header).
#include "cudnnctl/install/install_download.hpp"

#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/fetch/arriving_bytes.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {

// The extraction beside the download: started with the download, over the growing `.part` file; stopped
// (joined) when the download ends, before its file is renamed or removed.
class ExtractionBeside {
public:
  ExtractionBeside(ArchiveFormat format, std::string staging, ExtractOptions options)
      : m_format(format), m_staging(std::move(staging)), m_options(std::move(options)) {}
  ~ExtractionBeside() { stop(); }
  ExtractionBeside(const ExtractionBeside&) = delete;
  ExtractionBeside& operator=(const ExtractionBeside&) = delete;

  void start(const std::string& part, std::uint64_t total) {
    m_options.read.arriving = {total, [this](std::uint64_t b, std::uint64_t e) { return m_arriving.wait_for(b, e); }};
    log::info("install: extracting {} into {} while it downloads", part, m_staging);
    m_thread = std::thread([this, part] { m_result = extract_archive(part, m_format, m_staging, m_options); });
  }
  void report(const ExtentSet& present) { m_arriving.report(present); }
  void stop() {
    m_arriving.finish();
    if (m_thread.joinable()) m_thread.join();
  }
  // The staging folder as the extraction beside the download left it, when that can be kept: it ran, it
  // succeeded, and nothing it read was dropped meanwhile.
  std::optional<ExtractResult> kept() {
    stop();
    if (!m_result) return std::nullopt;
    if (m_arriving.dropped()) log::info("install: bytes read during the download were dropped (a restart): extracting again");
    else if (!*m_result) log::info("install: the extraction beside the download failed ({}): extracting the verified file", m_result->error().message);
    else return std::move(**m_result);
    return std::nullopt;
  }

private:
  ArchiveFormat m_format;
  std::string m_staging;
  ExtractOptions m_options;
  ArrivingBytes m_arriving;
  std::thread m_thread;
  std::optional<Result<ExtractResult>> m_result;
};

// An empty staging folder again, for an extraction from the file.
Result<void> empty_staging(const std::string& staging) {
  platform::remove_tree(staging);
  return platform::make_directories(staging);
}

Result<VerifiedExtraction> download_into(const std::string& staging, const ExtractOptions& options, FetchRequest request,
                                         const ArchiveFetch& fetch, ArchiveFormat format, const std::vector<ExpectedHash>& expected,
                                         const std::function<void(const FetchOutcome&)>& fetched) {
  ExtractOptions beside_options = options;
  beside_options.on_total = {};  // the download draws the progress
  beside_options.on_bytes = {};
  ExtractionBeside beside(format, staging, beside_options);
  request.tail_first = format == ArchiveFormat::zip;
  request.on_download_start = [&](const std::string& part, std::uint64_t total) { beside.start(part, total); };
  request.on_extents = [&](const ExtentSet& present) { beside.report(present); };
  request.after_download = [&] { beside.stop(); };
  auto got = fetch(std::move(request));
  beside.stop();
  CUDNNCTL_TRY(got);
  if (fetched) fetched(*got);
  if (!got->downloaded) {  // the cache had it: the plain path, as for an archive file
    log::info("install: {} is in the cache; verified and extracted from the file", got->path);
    return verify_and_extract(got->path, format, expected, false, staging, options);
  }
  // the download's own hash, taken in order as the bytes arrived: the one pass over the archive's bytes
  CUDNNCTL_TRY_ASSIGN(auto judged, judge_hash(got->path, got->bytes, got->sha256, expected, false));
  if (auto done = beside.kept()) return VerifiedExtraction{std::move(judged), std::move(*done)};
  CUDNNCTL_TRY(empty_staging(staging));
  CUDNNCTL_TRY_ASSIGN(auto extracted, extract_archive(got->path, format, staging, options));
  return VerifiedExtraction{std::move(judged), std::move(extracted)};
}

} // namespace

StagingFill extract_while_downloading(FetchRequest request, ArchiveFetch fetch, ArchiveFormat format, std::vector<ExpectedHash> expected,
                                      std::function<void(const FetchOutcome&)> fetched) {
  return [=](const std::string& staging, const ExtractOptions& options) {
    return download_into(staging, options, request, fetch, format, expected, fetched);
  };
}

} // namespace cudnnctl
