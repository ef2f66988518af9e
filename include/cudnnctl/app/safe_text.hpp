#pragma once
// Standard output as the terminal sees it: every byte cudnnctl prints passes terminal_safe(), so a file
// name, a path or a checksum line carrying ESC sequences or invalid UTF-8 is shown as "\xNN" and never
// acts on the terminal. JSON output is ASCII (non-ASCII is escaped as \uXXXX), so it passes unchanged.
#include <ostream>
#include <streambuf>
#include <string>

namespace cudnnctl {

class SafeTextBuf final : public std::streambuf {
public:
  explicit SafeTextBuf(std::ostream& target) : m_target(target) {}
  ~SafeTextBuf() override;
  SafeTextBuf(const SafeTextBuf&) = delete;
  SafeTextBuf& operator=(const SafeTextBuf&) = delete;

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

private:
  void flush_pending(bool all);
  std::ostream& m_target;
  std::string m_pending;
};

/// An ostream over SafeTextBuf.
class SafeTextStream final : public std::ostream {
public:
  explicit SafeTextStream(std::ostream& target) : std::ostream(nullptr), m_buf(target) { rdbuf(&m_buf); }

private:
  SafeTextBuf m_buf;
};

} // namespace cudnnctl
