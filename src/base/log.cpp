// The developer log: spdlog behind log.hpp, one logger at a time, swapped in and out by Session.
#include "cudnnctl/base/log.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>

#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ostream_sink.h>

#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl::log {

namespace {

std::atomic<int> g_level{0};
std::mutex g_mutex;                      // guards g_logger (workers may log while the main thread ends a session)
std::shared_ptr<spdlog::logger> g_logger;
std::string g_file;                      // the running session's log file (guarded by g_mutex)
bool g_relay = false;                    // the running session writes relay lines for a parent (guarded by g_mutex)

constexpr std::string_view k_relay_prefix = "cudnnctl-log:";

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
  case Level::info: return spdlog::level::info;
  case Level::debug: return spdlog::level::debug;
  case Level::trace: return spdlog::level::trace;
  case Level::off: break;
  }
  return spdlog::level::off;
}

std::optional<Level> level_named(std::string_view name) {
  if (name == "info") return Level::info;
  if (name == "debug") return Level::debug;
  if (name == "trace") return Level::trace;
  return std::nullopt;
}

// --log-file's sink: spdlog's own file sink opens its file by a narrow name (the ANSI code page on Windows);
// this one writes to a stream opened through the UTF-8 seam (base/utf8_path.hpp).
class Utf8FileSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
  explicit Utf8FileSink(std::unique_ptr<std::ofstream> out) : m_out(std::move(out)) {}

protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t line;
    formatter_->format(msg, line);
    m_out->write(line.data(), static_cast<std::streamsize>(line.size()));
  }
  void flush_() override { m_out->flush(); }

private:
  std::unique_ptr<std::ofstream> m_out;
};

// the sink takes the messages from now on, until the session ends
void install(std::shared_ptr<spdlog::sinks::sink> sink, const std::string& pattern, Level level, const std::string& file, bool relay = false) {
  auto logger = std::make_shared<spdlog::logger>("cudnnctl", std::move(sink));
  logger->set_pattern(pattern);
  logger->set_level(to_spdlog(level));
  logger->flush_on(spdlog::level::trace);  // every line reaches the file, even if the run is killed
  logger->set_error_handler([](const std::string&) {});  // a failing log never fails the run
  {
    std::lock_guard lock(g_mutex);
    g_logger = std::move(logger);
    g_file = file;
    g_relay = relay;
  }
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

} // namespace

Level level_for_verbosity(int count) {
  if (count <= 0) return Level::off;
  if (count == 1) return Level::info;
  if (count == 2) return Level::debug;
  return Level::trace;
}

bool enabled(Level level) noexcept {
  return level != Level::off && static_cast<int>(level) <= g_level.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view message) {
  std::shared_ptr<spdlog::logger> logger;
  bool relay = false;
  {
    std::lock_guard lock(g_mutex);
    logger = g_logger;
    relay = g_relay;
  }
  if (!logger) return;
  // a parent relays only lines that carry the prefix: a message of several lines goes as several lines
  for (auto eol = message.find('\n'); relay && eol != std::string_view::npos; eol = message.find('\n')) {
    logger->log(to_spdlog(level), message.substr(0, eol));
    message.remove_prefix(eol + 1);
  }
  logger->log(to_spdlog(level), message);
}

Result<Session> Session::start(Level level, const std::string& file, std::ostream& err) {
  if (level == Level::off) return Session();
  std::shared_ptr<spdlog::sinks::sink> sink;
  std::string pattern = "[%H:%M:%S.%e] [%l] %v";
  if (!file.empty()) {
    // Opened here, through the UTF-8 seam: a missing parent folder is an error that names the option and a fix.
    errno = 0;
    auto out = std::make_unique<std::ofstream>(path_from_utf8(file), std::ios::binary | std::ios::app);
    if (!*out)
      return fail(ErrorCode::io, fmt::format("cannot open the log file '{}' (--log-file): {}", file, std::strerror(errno ? errno : EACCES)),
                  "give --log-file a file in a folder that exists and that you can write to", file);
    sink = std::make_shared<Utf8FileSink>(std::move(out));
    pattern = "[%Y-%m-%d %H:%M:%S.%e] [pid %P tid %t] [%l] %v";
  } else {
    sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err, true);
  }
  install(std::move(sink), pattern, level, file);
  return active();
}

Result<Session> Session::start_for_parent(Level level, std::ostream& err) {
  if (level == Level::off) return Session();
  install(std::make_shared<spdlog::sinks::ostream_sink_mt>(err, true), std::string(k_relay_prefix) + "%l:%H:%M:%S.%e %v", level, {}, true);
  return active();
}

Session Session::active() {
  Session s;
  s.m_active = true;
  return s;
}

Session::~Session() {
  if (!m_active) return;
  g_level.store(0, std::memory_order_relaxed);
  std::lock_guard lock(g_mutex);
  if (g_logger) g_logger->flush();
  g_logger.reset();
  g_file.clear();
  g_relay = false;
}

Level current_level() noexcept { return static_cast<Level>(g_level.load(std::memory_order_relaxed)); }

std::string current_file() {
  std::lock_guard lock(g_mutex);
  return g_file;
}

std::string relay_child_log(std::string_view child_stderr, std::string_view who) {
  std::string rest;
  while (!child_stderr.empty()) {
    const auto eol = child_stderr.find('\n');
    const auto line = child_stderr.substr(0, eol == std::string_view::npos ? child_stderr.size() : eol + 1);
    child_stderr.remove_prefix(line.size());
    // cudnnctl-log:<level>:<HH:MM:SS.mmm> <text>
    auto body = line;
    while (body.ends_with('\n') || body.ends_with('\r')) body.remove_suffix(1);
    const auto level_end = body.find(':', k_relay_prefix.size());
    const auto time_end = body.find(' ', k_relay_prefix.size());
    const auto level = body.starts_with(k_relay_prefix) && level_end < time_end
                           ? level_named(body.substr(k_relay_prefix.size(), level_end - k_relay_prefix.size()))
                           : std::nullopt;
    if (!level || time_end == std::string_view::npos) {
      rest += line;
      continue;
    }
    if (enabled(*level))
      write(*level, fmt::format("{} [{}]: {}", who, body.substr(level_end + 1, time_end - level_end - 1), body.substr(time_end + 1)));
  }
  return rest;
}

Phase::Phase(std::string name) : m_name(std::move(name)), m_start(std::chrono::steady_clock::now()) {
  debug("phase {}: start", m_name);
}

void Phase::end() {
  if (m_done) return;
  m_done = true;
  info("phase {}: {}", m_name, elapsed_ms(m_start));
}

std::string elapsed_ms(std::chrono::steady_clock::time_point start) {
  const std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - start;
  return fmt::format("{:.1f} ms", d.count());
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    if (a.empty() || a.find_first_of(" \t\"'") != std::string::npos) out += fmt::format("'{}'", a);
    else out += a;
  }
  return out;
}

} // namespace cudnnctl::log
