#include "cudnnctl/machine/loader_view.hpp"

#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/env/mixed_release.hpp"

namespace cudnnctl {

LoaderView::LoaderView(const platform::Environment& env, platform::HostPlatform host, LdCacheRead read_ld_cache)
    : m_env(env), m_host(host), m_read_ld_cache(std::move(read_ld_cache)) {
  if (!m_read_ld_cache) m_read_ld_cache = [] { return read_ld_cache_text(); };
}

const LookupPlaces& LoaderView::places() {
  if (!m_places) {
    LookupPlaces p;
    p.env = &m_env;
    if (m_host.os == Os::linux_os) {
      ++m_cache_reads;
      auto text = m_read_ld_cache();
      if (!text) m_ld_cache_problem = text.error().message;
      p.ld_cache_text = text.value_or(std::string());
    }
    p.triplet = multiarch_triplet(m_host.arch);
    std::error_code ec;
    p.cwd = utf8_of(std::filesystem::current_path(ec));
    p.exists = [](const std::string& path) {
      std::error_code e;
      return std::filesystem::is_regular_file(path_from_utf8(path), e);
    };
    m_places = std::move(p);
  }
  return *m_places;
}

LibraryLookup LoaderView::look_up(const std::string& file, const std::string& named_dir) {
  return look_up_library(file, named_dir, m_host.os, places());
}

std::string LoaderView::cudnn_dir() {
  const std::vector<std::string> names = m_host.os == Os::windows ? std::vector<std::string>{"cudnn64_9.dll", "cudnn64_8.dll"}
                                                                  : std::vector<std::string>{"libcudnn.so.9", "libcudnn.so.8"};
  for (const auto& name : names) {
    const auto l = look_up(name);
    if (!l.found.empty()) return utf8_of(path_from_utf8(l.found).parent_path());
  }
  return {};
}

const ShadowReport& LoaderView::cudnn_copies(unsigned major) {
  auto it = m_copies.find(major);
  if (it == m_copies.end()) {
    const auto& p = places();
    const bool win = m_host.os == Os::windows;
    const auto order = win ? windows_search_order(m_env, {}, p.cwd)
                           : linux_search_order(m_env, OwnSearchPaths{}, parse_ldconfig_cache(p.ld_cache_text), p.triplet);
    it = m_copies.emplace(major, scan_cudnn_copies(order, win ? LoaderFlavor::windows : LoaderFlavor::linux_ld, major, "")).first;
  }
  return it->second;
}

std::vector<std::string> LoaderView::mixed_release_findings(unsigned major) {
  const auto& report = cudnn_copies(major);
  std::vector<LoadPlace> in_use;
  for (const auto& c : report.copies)
    if (c.major == major && !c.other_machine) in_use.push_back(place_of_copy(c));
  std::vector<std::string> out;
  for (const auto& g : mixed_release_gaps(in_use, report.copies, m_host.os == Os::windows ? Os::windows : Os::linux_os))
    out.push_back(gap_text(g) + "; fix: " + gap_fix(g));
  if (out.empty())
    out.push_back(fmt::format("no cuDNN {} copy on this machine's loader path ({} found) lacks a sub-library that another release there "
                              "fills; a framework's own bundle is not on that path (`cudnnctl doctor` checks bundles too)",
                              major, in_use.size()));
  return out;
}

} // namespace cudnnctl
