#include <catch2/catch.hpp>

#include <map>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "cudnnctl/trace/trace.hpp"

using namespace cudnnctl;

namespace {
// Facts by path, as the real seam would find them on disk.
TraceSeams seams(std::map<std::string, std::string> versions, std::map<std::string, std::vector<OtherCopy>> others = {},
                 std::map<std::string, Owner> owners = {}) {
  TraceSeams s;
  s.describe = [versions, owners](const std::string& p) {
    LibraryFacts f;
    if (auto it = versions.find(p); it != versions.end()) f.version = it->second, f.version_source = "file name";
    if (auto it = owners.find(p); it != owners.end()) f.owner = it->second;
    return f;
  };
  s.other_copies = [others](const std::string& p, const std::string&) {
    auto it = others.find(p);
    return it == others.end() ? std::vector<OtherCopy>{} : it->second;
  };
  return s;
}
std::vector<std::string> fault_ids(const TraceReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.faults) out.push_back(f.signature);
  return out;
}
} // namespace

TEST_CASE("trace events parse and malformed lines are skipped", "[trace]") {
  const auto e = parse_trace_events("P\t10\t1\t/usr/bin/python3\t\nS\t10\tasked\tlibcudnn.so.9\t\nbroken line\nO\tx\t/a\t\t\nO\t10\t/a/libcudnn.so.9\t\t");
  REQUIRE(e.size() == 3);
  CHECK(e[0].kind == 'P');
  CHECK(e[0].b == "/usr/bin/python3");
  CHECK(e[2].kind == 'O');
  CHECK(e[2].a == "/a/libcudnn.so.9");
}

TEST_CASE("library names are classified with their major", "[trace]") {
  CHECK(classify_library("libcudnn.so.9").family == LibFamily::cudnn);
  CHECK(classify_library("libcudnn.so.9.19.0").major == 9);
  CHECK(classify_library("libcudnn_engines_precompiled.so.9").family == LibFamily::cudnn_sub);
  CHECK(classify_library("libcublasLt.so.12").family == LibFamily::cublaslt);
  CHECK(classify_library("libcublasLt.so.12").major == 12);
  CHECK(classify_library("libnvrtc-builtins.so.13.0").family == LibFamily::nvrtc);
  CHECK(classify_library("libnvrtc-builtins.so.13.0").major == 13);
  CHECK(classify_library("libcudart.so.13").major == 13);
  CHECK(classify_library("libcuda.so.1").family == LibFamily::driver);
  CHECK(classify_library("cudnn64_9.dll").family == LibFamily::cudnn);
  CHECK(classify_library("cudnn_graph64_9.dll").family == LibFamily::cudnn_sub);
  CHECK(classify_library("cublasLt64_12.dll").major == 12);
  CHECK(classify_library("nvrtc64_120_0.dll").major == 12);
  CHECK(classify_library("cudart64_110.dll").major == 11);
  CHECK(classify_library("nvcuda.dll").family == LibFamily::driver);
  CHECK(classify_library("libz.so.1").family == LibFamily::other);
}

TEST_CASE("versions compare numerically", "[trace]") {
  CHECK(compare_versions("9.1.0", "9.8") < 0);
  CHECK(compare_versions("9.10.0", "9.8.0") > 0);
  CHECK(compare_versions("9.19.0.56", "9.19.0") > 0);
  CHECK(compare_versions("9.8", "9.8.0") == 0);
}

TEST_CASE("trace names the search step, the requester and the lazy sub-library load", "[trace]") {
  const auto events = parse_trace_events(
      "P\t7\t1\t/usr/bin/python3.11\t\n"
      "S\t7\tasked\tlibcudnn.so.9\t/py/_ctypes.so\n"
      "S\t7\tRUNPATH\t/py/lib/libcudnn.so.9\t/py/_ctypes.so\n"
      "S\t7\tld.so cache\t/cuda/lib/libcudnn.so.9\t/py/_ctypes.so\n"
      "O\t7\t/cuda/lib/libcudnn.so.9\t\t\n"
      "S\t7\tasked\tlibcudnn_graph.so.9.19.0\t/cuda/lib/libcudnn.so.9\n"
      "S\t7\tRUNPATH\t/cuda/lib/libcudnn_graph.so.9.19.0\t/cuda/lib/libcudnn.so.9\n"
      "S\t7\tdefault folder\t/usr/lib/libcudnn_graph.so.9.19.0\t/cuda/lib/libcudnn.so.9\n"
      "S\t7\tasked\tlibcudnn_graph.so.9\t/cuda/lib/libcudnn.so.9\n"
      "S\t7\tRUNPATH\t/cuda/lib/libcudnn_graph.so.9\t/cuda/lib/libcudnn.so.9\n"
      "O\t7\t/cuda/lib/libcudnn_graph.so.9\t\t\n");
  const auto r = build_trace_report(events, seams({}));
  REQUIRE(r.loaded.size() == 2);
  CHECK(r.loaded[0].step == "ld.so cache");
  CHECK(r.loaded[0].requested_by == "/py/_ctypes.so");
  CHECK(r.loaded[0].program == "/usr/bin/python3.11");
  // its version is read from the exact sub-library release it asks for
  CHECK(r.loaded[0].facts.version == "9.19.0");
  CHECK(r.loaded[0].facts.version_source == "the sub-library names it asks for");
  CHECK(r.loaded[1].step == "RUNPATH");
  CHECK(r.loaded[1].asked_as == "libcudnn_graph.so.9");
  CHECK(r.missing.empty());  // the exact-release names cuDNN tried first are answered by the .so.9
  CHECK(r.faults.empty());
  REQUIRE(r.processes.size() == 1);
  CHECK(r.processes[0].ppid == 1);
}

TEST_CASE("trace faults: sub-library elsewhere, mixed releases, older than wanted, two CUDA majors, missing", "[trace]") {
  const auto events = parse_trace_events(
      "S\t5\tasked\tlibcudnn.so.9\t\n"
      "S\t5\tLD_LIBRARY_PATH\t/old/libcudnn.so.9\t\n"
      "O\t5\t/old/libcudnn.so.9\t\t\n"
      "S\t5\tasked\tlibcudnn_graph.so.9\t/old/libcudnn.so.9\n"
      "S\t5\tld.so cache\t/new/libcudnn_graph.so.9\t/old/libcudnn.so.9\n"
      "O\t5\t/new/libcudnn_graph.so.9\t\t\n"
      "S\t5\tasked\tlibcublasLt.so.13\t/new/libcudnn_graph.so.9\n"
      "S\t5\tld.so cache\t/new/libcublasLt.so.13\t/new/libcudnn_graph.so.9\n"
      "O\t5\t/new/libcublasLt.so.13\t\t\n"
      "S\t5\tasked\tlibcudart.so.12\t\n"
      "S\t5\tdefault folder\t/usr/lib/libcudart.so.12\t\n"
      "O\t5\t/usr/lib/libcudart.so.12\t\t\n"
      "S\t5\tasked\tlibcudnn_cnn.so.9\t/old/libcudnn.so.9\n"
      "S\t5\tRUNPATH\t/old/libcudnn_cnn.so.9\t/old/libcudnn.so.9\n");
  OtherCopy installed{"/toolkit/lib64/libcudnn.so.9", "9.19.0", "later in the search order (ld.so cache)", true};
  Owner dpkg;
  dpkg.kind = OwnerKind::dpkg;
  dpkg.package = "libcudnn9-cuda-12";
  dpkg.version = "9.1.0.70-1";
  const auto r = build_trace_report(events, seams({{"/old/libcudnn.so.9", "9.1.0"}, {"/new/libcudnn_graph.so.9", "9.19.0"}},
                                                  {{"/old/libcudnn.so.9", {installed}}}, {{"/old/libcudnn.so.9", dpkg}}),
                                    "9.8");
  const auto ids = fault_ids(r);
  CHECK(ids == std::vector<std::string>{"loader.versions.mixed", "loader.sublibrary.elsewhere", "files.search_path", "files.search_path",
                                        "loader.cuda-majors", "files.complete"});
  CHECK(r.faults[1].detail.find("libcudnn_graph.so.9 comes from /new (ld.so cache), but libcudnn.so.9 from /old") != std::string::npos);
  // each release's files with their folders and owners, so that the fix can be the owner's own
  CHECK_THAT(r.faults[0].detail, Catch::Contains("9.1.0: libcudnn.so.9 in /old (dpkg: libcudnn9-cuda-12 9.1.0.70-1)") &&
                                     Catch::Contains("libcudnn_graph.so.9 in /new (not owned by any package manager)"));
  CHECK_THAT(r.faults[1].detail, Catch::Contains("owners: not owned by any package manager, and dpkg: libcudnn9-cuda-12 9.1.0.70-1"));
  CHECK(r.faults[3].detail.find("the cuDNN cudnnctl installed (/toolkit/lib64/libcudnn.so.9 9.19.0) is not the one loaded") != std::string::npos);
  CHECK(r.faults[4].detail.find("majors 12 and 13") != std::string::npos);
  REQUIRE(r.missing.size() == 1);
  CHECK(r.missing[0].name == "libcudnn_cnn.so.9");
  CHECK(r.missing[0].tried == std::vector<std::string>{"/old"});
  for (const auto& f : r.faults) CHECK(!signature(f.signature).fix.empty());
}

TEST_CASE("trace keeps processes apart: a child's libraries are not mixed with its parent's", "[trace]") {
  const auto events = parse_trace_events(
      "P\t1\t0\t/bin/sh\t\nP\t2\t1\t/usr/bin/a\t\nP\t3\t1\t/usr/bin/b\t\n"
      "S\t2\tasked\t/x/libcudnn.so.9\t\nO\t2\t/x/libcudnn.so.9\t\t\n"
      "S\t3\tasked\t/y/libcudnn.so.9\t\nO\t3\t/y/libcudnn.so.9\t\t\n");
  const auto r = build_trace_report(events, seams({{"/x/libcudnn.so.9", "9.1.0"}, {"/y/libcudnn.so.9", "9.19.0"}}));
  REQUIRE(r.processes.size() == 2);
  CHECK(r.loaded[0].step == "path given by the program");
  CHECK(r.loaded[1].program == "/usr/bin/b");
  CHECK(r.faults.empty());
}

TEST_CASE("trace: a version known less precisely is not another release (9.1.0 beside 9.1.0.70, 9 beside 9.19.0)", "[trace]") {
  // NVIDIA's cudnn_graph64_9.dll 9.1.0 has no version resource: its version comes from cudnn_version.h (9.1.0)
  // while cudnn64_9.dll's resource says 9.1.0.70 (seen under wine with the real wheel)
  const auto one = parse_trace_events("P\t1\t0\tC:\\app\\a.exe\t\nS\t1\tasked\t\t\nS\t1\tPATH\tC:\\w\\cudnn64_9.dll\t\nO\t1\tC:\\w\\cudnn64_9.dll\t\t\n"
                                      "S\t1\tasked\t\t\nS\t1\tPATH\tC:\\w\\cudnn_graph64_9.dll\t\nO\t1\tC:\\w\\cudnn_graph64_9.dll\t\t\n");
  auto r = build_trace_report(one, seams({{"C:\\w\\cudnn64_9.dll", "9.1.0.70"}, {"C:\\w\\cudnn_graph64_9.dll", "9.1.0"}}));
  REQUIRE(r.loaded.size() == 2);
  CHECK(r.loaded[0].step == "PATH");
  CHECK(r.loaded[0].asked_as.empty());
  CHECK(r.missing.empty());
  CHECK(r.faults.empty());
  r = build_trace_report(one, seams({{"C:\\w\\cudnn64_9.dll", "9.19.0"}, {"C:\\w\\cudnn_graph64_9.dll", "9"}}));
  CHECK(r.faults.empty());
  // two builds of one release are one release; 9.1.0 and 9.1.1 are two, and 9.1 is not 9.10
  r = build_trace_report(one, seams({{"C:\\w\\cudnn64_9.dll", "9.1.0.70"}, {"C:\\w\\cudnn_graph64_9.dll", "9.1.1.17"}}));
  CHECK(fault_ids(r) == std::vector<std::string>{"loader.versions.mixed"});
  r = build_trace_report(one, seams({{"C:\\w\\cudnn64_9.dll", "9.1"}, {"C:\\w\\cudnn_graph64_9.dll", "9.10.0"}}));
  CHECK(fault_ids(r) == std::vector<std::string>{"loader.versions.mixed"});
}
