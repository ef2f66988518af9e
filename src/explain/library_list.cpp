#include "cudnnctl/explain/library_list.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

// "libcudnn_ops.so.9.1" -> (cudnn_ops, 9); "nvrtc64_120_0" -> (nvrtc, 12); "cublas64_12.dll" -> (cublas, 12); "cuda" -> (cuda, -1).
ListedLibrary listed(std::string name) {
  ListedLibrary l{name, {}, -1};
  static const std::regex so(R"(^(?:lib)?([A-Za-z][A-Za-z_+-]*?)(?:\.so)(?:\.([0-9]+)(?:\.[0-9]+)*)?$)");
  static const std::regex win(R"(^([A-Za-z][A-Za-z_+-]*?)(?:64)?(?:_([0-9]+))?(?:_[0-9]+)*(?:\.dll)?$)", std::regex::icase);
  std::smatch m;
  if (std::regex_match(name, m, so) || std::regex_match(name, m, win)) {
    l.base = to_lower_ascii(m[1].str());
    if (l.base.starts_with("lib") && l.base.size() > 3 && name.find(".so") == std::string::npos) l.base = l.base.substr(3);
    if (m[2].matched) {
      auto digits = m[2].str();
      if (digits.size() == 3) digits = digits.substr(0, 2);  // nvrtc64_120_0: CUDA 12.0
      l.major = std::stoi(digits);
    }
  } else {
    l.base = to_lower_ascii(name);
  }
  return l;
}

std::string family_name(const std::string& base) {
  if (base.starts_with("cudnn")) return "cuDNN";
  if (base == "cuda" || base == "nvcuda") return "the driver (libcuda)";
  return "CUDA";
}

} // namespace

std::string LibraryList::said() const {
  if (entries.empty()) return {};
  std::string bases;
  for (const auto& e : entries)
    if (bases.find(e.base) == std::string::npos) bases += (bases.empty() ? "" : ", ") + e.base;
  if (majors.empty()) return fmt::format("it tried {} under {} names, none with a major in it", bases, entries.size());
  std::string ms;
  for (auto m : majors) ms += fmt::format("{}{}", ms.empty() ? "" : " and ", m);
  return fmt::format("it tried {} under {} names, for {} {}{}", bases, entries.size(), family_name(entries.front().base), ms,
                     majors.size() == 1 ? " only" : "");
}

std::optional<LibraryList> library_list_in(std::string_view text) {
  const std::string line(text);
  // {a, b, c} (ctranslate2) or ["a", "b"] (cudarc, Rust's Debug of a list).
  static const std::regex braces(R"(\{\s*([A-Za-z0-9_.+-]+(?:\s*,\s*[A-Za-z0-9_.+-]+)+)\s*\})");
  static const std::regex brackets(R"(\[\s*("[A-Za-z0-9_.+-]+"(?:\s*,\s*"[A-Za-z0-9_.+-]+")+)\s*\])");
  std::smatch m;
  std::string body;
  if (std::regex_search(line, m, braces) || std::regex_search(line, m, brackets)) body = m[1].str();
  if (body.empty()) return std::nullopt;
  LibraryList list;
  static const std::regex item(R"re("?([A-Za-z0-9_.+-]+)"?)re");
  for (std::sregex_iterator it(body.begin(), body.end(), item), end; it != end; ++it) {
    auto l = listed((*it)[1].str());
    if (l.major >= 0 && std::find(list.majors.begin(), list.majors.end(), l.major) == list.majors.end()) list.majors.push_back(l.major);
    list.entries.push_back(std::move(l));
  }
  if (list.entries.size() < 2) return std::nullopt;
  return list;
}

} // namespace cudnnctl
