#include "cudnnctl/explain/version_statement.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

unsigned version_number(std::string_view s) { return static_cast<unsigned>(std::strtoul(std::string(s).c_str(), nullptr, 10)); }

enum class Side { built, loaded };

struct SideWord {
  std::string_view word;
  Side side;
};

// Longest first where one contains another. "linked against" is the built side unless the line also says
// "compiled" (old PyTorch: "compiled against 7102 but linked against 7600": linked is what it loaded).
constexpr SideWord k_side_words[] = {
    {"source was compiled with", Side::built}, {"compiled against", Side::built}, {"compiled with", Side::built},
    {"built against", Side::built},            {"built with", Side::built},       {"was built for", Side::built},
    {"compiled", Side::built},                 {"linked against", Side::built},   {"needs at least", Side::built},
    {"requires at least", Side::built},        {"at least", Side::built},         {"requires", Side::built},
    {"expected", Side::built},                 {"found runtime version", Side::loaded}, {"running against", Side::loaded},
    {"in your machine", Side::loaded},         {"installed version", Side::loaded}, {"loaded", Side::loaded},
    {"found", Side::loaded},                   {"runtime", Side::loaded},         {"got", Side::loaded},
};

struct Token {
  std::size_t pos, end;
  std::string text;
};

// Version-looking tokens: (8, 5, 0), 8.9.0, 7.4, 8906, 90100; not a time (17:24:55.80), a file line (cc:456),
// an sm_86 or a "compatibility version 7200".
std::vector<Token> version_tokens(const std::string& line) {
  static const std::regex token(R"(\(\s*[0-9]+\s*,\s*[0-9]+\s*(?:,\s*[0-9]+\s*)?\)|[0-9]+(?:\.[0-9]+){1,3}|[0-9]{4,5})");
  std::vector<Token> out;
  for (std::sregex_iterator it(line.begin(), line.end(), token), end; it != end; ++it) {
    const auto pos = static_cast<std::size_t>(it->position(0));
    const char before = pos ? line[pos - 1] : ' ';
    if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == ':' || before == '.' || before == '-') continue;
    const auto after = pos + static_cast<std::size_t>(it->length(0));
    if (after < line.size() && (std::isalnum(static_cast<unsigned char>(line[after])) || line[after] == '_')) continue;
    if (pos >= 22 && to_lower_ascii(line.substr(pos - 22, 21)).ends_with("compatibility version")) continue;
    out.push_back({pos, after, it->str(0)});
  }
  return out;
}

struct SideHit {
  std::size_t pos, end;
  Side side;
};

std::vector<SideHit> side_words(const std::string& lower) {
  std::vector<SideHit> hits;
  const bool says_compiled = lower.find("compiled") != std::string::npos;
  for (const auto& w : k_side_words) {
    for (auto at = lower.find(w.word); at != std::string::npos; at = lower.find(w.word, at + 1)) {
      const auto end = at + w.word.size();
      const bool inside = std::any_of(hits.begin(), hits.end(), [&](const SideHit& h) { return at < h.end && end > h.pos; });
      if (inside) continue;
      const bool linked = w.word == "linked against";
      hits.push_back({at, end, linked && says_compiled ? Side::loaded : w.side});
    }
  }
  std::sort(hits.begin(), hits.end(), [](const SideHit& a, const SideHit& b) { return a.pos < b.pos; });
  return hits;
}

// The version each side states: the first version token after a side word and before the next one.
std::optional<std::string> first_version_of(Side side, const std::vector<SideHit>& hits, const std::vector<Token>& tokens) {
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (hits[i].side != side) continue;
    const auto until = i + 1 < hits.size() ? hits[i + 1].pos : std::string::npos;
    for (const auto& t : tokens)
      if (t.pos >= hits[i].end && t.pos < until && t.pos - hits[i].end <= 40) return t.text;
  }
  return std::nullopt;
}

// XLA: "The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.3.107)" (or "the
// PTX compiler version"): the driver cannot load what the newer ptxas makes from its PTX.
std::optional<VersionStatement> ptxas_statement(const std::string& line) {
  static const std::regex older(
      R"(driver's CUDA version is ([0-9]+(?:\.[0-9]+)*) which is older than the (?:ptxas|PTX compiler) (?:CUDA )?version \(([0-9]+(?:\.[0-9]+)*)\))",
      std::regex::icase);
  std::smatch m;
  if (!std::regex_search(line, m, older)) return std::nullopt;
  const auto driver = parse_cuda_version(m[1].str()), ptxas = parse_cuda_version(m[2].str());
  if (!driver || !ptxas) return std::nullopt;
  VersionStatement v;
  v.product = VersionProduct::driver;
  v.product_name = "the driver's CUDA";
  v.loaded = *driver;
  v.built = *ptxas;
  v.built_known = true;
  v.older = OlderSide::loaded;
  v.rule = "code from a ptxas of CUDA " + ptxas->text() + " needs a driver of that CUDA release or newer; XLA falls back to slower "
           "compilation, and code that needs the newer driver fails: update the driver (or use cuda-compat, or a jax/ptxas of CUDA " +
           driver->text() + ")";
  return v;
}

std::optional<VersionStatement> driver_statement(const std::string& line, const std::string& lower) {
  if (auto v = ptxas_statement(line)) return v;
  static const std::regex too_old(R"(driver[^.]*too old \(found version ([0-9]+)\))", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(line, m, too_old)) return std::nullopt;
  const auto supported = parse_cuda_version(m[1].str());
  if (!supported) return std::nullopt;
  VersionStatement v;
  v.product = VersionProduct::driver;
  v.product_name = "the driver's CUDA";
  v.loaded = *supported;
  v.older = OlderSide::loaded;
  v.rule = "a driver runs programs built with CUDA up to the version it reports (the driver API's version: 11040 is CUDA 11.4); "
           "the program's CUDA runtime is newer, so the driver must be updated (or a build for CUDA " +
           supported->text() + " or older used)";
  (void)lower;
  return v;
}

void decide_cudnn(VersionStatement& v) {
  const int c = v.loaded.compare(v.built);
  v.older = c < 0 ? OlderSide::loaded : c > 0 ? OlderSide::built : OlderSide::same;
  if (v.loaded.major != v.built.major)
    v.rule = "cuDNN majors are not compatible: a program built for one major needs a cuDNN of that major";
  else
    v.rule = "cuDNN keeps compatibility within a major: a program built against X.Y runs on X.Z with Z >= Y (TensorFlow, JAX, "
             "PyTorch and Paddle check the same major and at least the minor); an older minor is refused or risky";
}

} // namespace

std::string DottedVersion::text() const {
  if (!has_minor) return fmt::format("{}", major);
  return has_patch ? fmt::format("{}.{}.{}", major, minor, patch) : fmt::format("{}.{}", major, minor);
}

int DottedVersion::compare(const DottedVersion& o) const {
  if (major != o.major) return major < o.major ? -1 : 1;
  if (!has_minor || !o.has_minor) return 0;
  if (minor != o.minor) return minor < o.minor ? -1 : 1;
  if (patch != o.patch) return patch < o.patch ? -1 : 1;
  return 0;
}

std::optional<DottedVersion> parse_cudnn_version(std::string_view in) {
  std::string s(in);
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '(' || c == ')' || c == ' '; }), s.end());
  std::replace(s.begin(), s.end(), ',', '.');
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return std::nullopt;
  DottedVersion v;
  if (s.find('.') == std::string::npos) {
    const auto n = version_number(s);
    if (n >= 10000 && n < 1000000) v = {n / 10000, n % 10000 / 100, n % 100, true, true};
    else if (n >= 1000 && n < 10000) v = {n / 1000, n % 1000 / 100, n % 100, true, true};
    else return std::nullopt;
    return v;
  }
  const auto parts = split(s, '.');
  v.major = version_number(parts[0]);
  v.minor = parts.size() > 1 ? version_number(parts[1]) : 0;
  v.patch = parts.size() > 2 ? version_number(parts[2]) : 0;
  v.has_minor = parts.size() > 1;
  v.has_patch = parts.size() > 2;
  return v;
}

std::optional<DottedVersion> parse_cuda_version(std::string_view in) {
  const std::string s(in);
  if (s.find('.') != std::string::npos) return parse_cudnn_version(s);
  const auto n = version_number(s);
  if (n < 1000 || n >= 100000) return std::nullopt;
  return DottedVersion{n / 1000, n % 1000 / 10, 0, true, false};
}

std::string VersionStatement::said() const {
  if (product == VersionProduct::driver)
    return fmt::format("the driver supports CUDA up to {}, older than the CUDA runtime the program was built with", loaded.text());
  const auto built_text = built.text(), loaded_text = loaded.text();
  switch (older) {
  case OlderSide::loaded:
    return fmt::format("the {} loaded is {}, older than the {} the program was built with", product_name, loaded_text, built_text);
  case OlderSide::built:
    return fmt::format("the {} loaded is {}, newer than the {} the program was built with", product_name, loaded_text, built_text);
  case OlderSide::same: break;
  }
  return fmt::format("the {} loaded is {}, the program was built with {}", product_name, loaded_text, built_text);
}

std::optional<VersionStatement> version_statement_in(std::string_view text) {
  const std::string line(text);
  const auto lower = to_lower_ascii(line);
  if (auto d = driver_statement(line, lower)) return d;
  if (lower.find("cudnn") == std::string::npos) return std::nullopt;
  const auto hits = side_words(lower);
  const auto tokens = version_tokens(line);
  const auto built = first_version_of(Side::built, hits, tokens);
  const auto loaded = first_version_of(Side::loaded, hits, tokens);
  if (!built || !loaded) return std::nullopt;
  const auto b = parse_cudnn_version(*built), l = parse_cudnn_version(*loaded);
  if (!b || !l) return std::nullopt;
  VersionStatement v;
  v.product = VersionProduct::cudnn;
  v.product_name = "cuDNN";
  v.built = *b;
  v.loaded = *l;
  v.built_known = true;
  decide_cudnn(v);
  return v;
}

} // namespace cudnnctl
