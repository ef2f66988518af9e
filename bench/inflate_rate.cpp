// bench helper: the inflater's own rate on a zip's deflated members, nothing written or hashed.
//   cudnnctl_inflate_rate ZIP [zlib|isal]
// Reads each member's compressed bytes into memory first (not timed), then inflates it through
// cudnnctl's Inflater in 256 KiB steps, as extraction does, timing thread CPU; checks the CRC-32.
// Prints one JSON line: engine, members, bytes_in, bytes_out, cpu_s, and the largest member's share.
#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cudnnctl/archive/inflater.hpp"

namespace {
double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s ZIP [zlib|isal]\n", argv[0]);
    return 2;
  }
  auto kind = cudnnctl::InflaterKind::best;
  if (argc > 2) kind = std::string(argv[2]) == "zlib" ? cudnnctl::InflaterKind::zlib : cudnnctl::InflaterKind::isal;
  int err = 0;
  zip_t* z = zip_open(argv[1], ZIP_RDONLY, &err);
  if (!z) return 1;
  std::vector<char> out(256 << 10);
  double total_cpu = 0, largest_cpu = 0;
  std::uint64_t total_in = 0, total_out = 0, largest_out = 0, members = 0;
  std::string engine;
  for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
    zip_stat_t st;
    if (zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st) != 0 || st.comp_method != ZIP_CM_DEFLATE) continue;
    std::vector<char> in(st.comp_size);
    zip_file_t* f = zip_fopen_index(z, static_cast<zip_uint64_t>(i), ZIP_FL_COMPRESSED);
    if (!f || zip_fread(f, in.data(), in.size()) != static_cast<zip_int64_t>(in.size())) return 1;
    zip_fclose(f);
    auto inf = cudnnctl::Inflater::create(kind);
    engine = std::string(cudnnctl::to_string(inf->kind()));
    const double t0 = thread_cpu();
    std::size_t pos = 0;
    std::uint64_t produced = 0;
    for (;;) {
      const std::size_t offer = std::min<std::size_t>(in.size() - pos, 256 << 10);
      auto s = inf->step(in.data() + pos, offer, out.data(), out.size());
      if (!s) {
        std::fprintf(stderr, "%s: %s\n", st.name, s.error().message.c_str());
        return 1;
      }
      pos += s->consumed;
      produced += s->produced;
      if (s->end) break;
      if (s->consumed == 0 && s->produced == 0) {
        std::fprintf(stderr, "%s: cut short\n", st.name);
        return 1;
      }
    }
    const double dt = thread_cpu() - t0;
    if (inf->crc32() != st.crc || produced != st.size) {
      std::fprintf(stderr, "%s: CRC or size mismatch\n", st.name);
      return 1;
    }
    ++members;
    total_cpu += dt;
    total_in += st.comp_size;
    total_out += produced;
    if (produced > largest_out) largest_out = produced, largest_cpu = dt;
  }
  zip_discard(z);
  std::printf("{\"engine\": \"%s\", \"members\": %llu, \"bytes_in\": %llu, \"bytes_out\": %llu, \"cpu_s\": %.4f, "
              "\"largest_bytes_out\": %llu, \"largest_cpu_s\": %.4f}\n",
              engine.c_str(), static_cast<unsigned long long>(members), static_cast<unsigned long long>(total_in),
              static_cast<unsigned long long>(total_out), total_cpu, static_cast<unsigned long long>(largest_out), largest_cpu);
  return 0;
}
