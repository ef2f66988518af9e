#include "cudnnctl/platform/windows_command_line.hpp"

namespace cudnnctl::platform {

std::string quote_windows_argument(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n\v\"") == std::string::npos) return arg;
  std::string out = "\"";
  std::size_t backslashes = 0;
  for (const char c : arg) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    // backslashes are literal unless a '"' follows them: then each is doubled and the '"' escaped
    out.append(c == '"' ? backslashes * 2 + 1 : backslashes, '\\');
    backslashes = 0;
    out += c;
  }
  out.append(backslashes * 2, '\\');  // before the closing quote
  return out + '"';
}

std::string quote_windows_program(const std::string& program) {
  std::string name;
  for (const char c : program)
    if (c != '"') name += c;
  if (!name.empty() && name.find_first_of(" \t") == std::string::npos) return name;
  std::string out = "\"";
  out += name;
  out += '"';
  return out;
}

std::string windows_command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i) out += ' ';
    out += i ? quote_windows_argument(argv[i]) : quote_windows_program(argv[i]);
  }
  return out;
}

} // namespace cudnnctl::platform
