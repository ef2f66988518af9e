#include "cudnnctl/loader/gpu_arch.hpp"

#include <charconv>

#include <fmt/format.h>

namespace cudnnctl {

namespace {

std::string arch_name(const char* prefix, const GpuArch& arch) {
  const char* suffix = arch.variant == ArchVariant::arch_specific ? "a" : arch.variant == ArchVariant::family ? "f" : "";
  return fmt::format("{}{}{}", prefix, arch.number, suffix);
}

ComputeCapability cc_of(const GpuArch& arch) { return {arch.major(), arch.minor()}; }

std::optional<unsigned> small_number(std::string_view text) {
  unsigned v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty() || v > 999) return std::nullopt;
  return v;
}

} // namespace

std::string sass_name(const GpuArch& arch) { return arch_name("sm_", arch); }
std::string ptx_name(const GpuArch& arch) { return arch_name("compute_", arch); }
std::string cc_text(ComputeCapability cc) { return fmt::format("{}.{}", cc.major, cc.minor); }
std::string cc_sm_name(ComputeCapability cc) { return fmt::format("sm_{}{}", cc.major, cc.minor); }

std::optional<ComputeCapability> parse_compute_capability(const std::string& text) {
  std::string_view t(text);
  if (t.starts_with("sm_")) {
    const auto n = small_number(t.substr(3));
    if (!n || *n < 10) return std::nullopt;
    return ComputeCapability{*n / 10, *n % 10};
  }
  const auto dot = t.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto major = small_number(t.substr(0, dot)), minor = small_number(t.substr(dot + 1));
  if (!major || !minor || *major == 0 || *minor > 9) return std::nullopt;
  return ComputeCapability{*major, *minor};
}

bool sass_runs_on(const GpuArch& sass, ComputeCapability cc) {
  const auto built = cc_of(sass);
  if (sass.variant == ArchVariant::arch_specific) return built == cc;
  return built.major == cc.major && cc.minor >= built.minor;
}

bool ptx_jits_on(const GpuArch& ptx, ComputeCapability cc) {
  const auto built = cc_of(ptx);
  switch (ptx.variant) {
  case ArchVariant::arch_specific: return built == cc;
  case ArchVariant::family: return built.major == cc.major && cc.minor >= built.minor;
  case ArchVariant::plain: break;
  }
  return cc >= built;
}

CodeFit code_fit(const std::vector<GpuArch>& sass, const std::vector<GpuArch>& ptx, ComputeCapability cc) {
  CodeFit best;
  for (const auto& s : sass) {
    if (!sass_runs_on(s, cc)) continue;
    // the closest build wins: the newest minor that still runs, an exact `a` build over a portable one
    if (best.kind == CodeFit::Kind::none || s.number > best.arch.number ||
        (s.number == best.arch.number && s.variant == ArchVariant::arch_specific))
      best = {CodeFit::Kind::sass, s};
  }
  if (best.kind != CodeFit::Kind::none) return best;
  for (const auto& p : ptx)
    if (ptx_jits_on(p, cc) && (best.kind == CodeFit::Kind::none || p.number > best.arch.number)) best = {CodeFit::Kind::ptx, p};
  return best;
}

} // namespace cudnnctl
