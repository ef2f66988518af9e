#include "cudnnctl/app/safe_text.hpp"

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

SafeTextBuf::~SafeTextBuf() { flush_pending(true); }

void SafeTextBuf::flush_pending(bool all) {
  // a UTF-8 sequence cut between two writes waits for its end
  const std::size_t keep = all ? 0 : incomplete_utf8_tail(m_pending);
  if (m_pending.size() > keep) {
    m_target << terminal_safe(std::string_view(m_pending).substr(0, m_pending.size() - keep));
    m_pending.erase(0, m_pending.size() - keep);
  }
}

SafeTextBuf::int_type SafeTextBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  m_pending += traits_type::to_char_type(c);
  if (m_pending.size() >= 4096 || traits_type::to_char_type(c) == '\n') flush_pending(false);
  return c;
}

std::streamsize SafeTextBuf::xsputn(const char* s, std::streamsize n) {
  m_pending.append(s, static_cast<std::size_t>(n));
  // whole lines go on at once, as they did before (a terminal sees each line when it is complete)
  if (m_pending.size() >= 4096 || std::string_view(s, static_cast<std::size_t>(n)).find('\n') != std::string_view::npos) flush_pending(false);
  return n;
}

int SafeTextBuf::sync() {
  flush_pending(false);
  m_target.flush();
  return m_target ? 0 : -1;
}

} // namespace cudnnctl
