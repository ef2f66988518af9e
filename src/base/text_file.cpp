#include "cudnnctl/base/text_file.hpp"

#include <fstream>

namespace cudnnctl {

namespace {

std::optional<std::string> read_up_to(const std::filesystem::path& path, std::size_t bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

} // namespace

std::optional<std::string> read_text_head(const std::filesystem::path& path, std::size_t max_bytes) { return read_up_to(path, max_bytes); }

std::optional<std::string> read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
  auto text = read_up_to(path, max_bytes + 1);
  if (!text || text->size() > max_bytes) return std::nullopt;
  return text;
}

} // namespace cudnnctl
