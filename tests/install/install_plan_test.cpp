#include <catch2/catch.hpp>

#include <algorithm>

#include "cudnnctl/install/install_plan.hpp"

using namespace cudnnctl;

namespace {

ArchiveListing listing_of(std::vector<std::pair<std::string, std::string>> members) {  // name, link target
  ArchiveListing l;
  for (auto& [n, link] : members) {
    ArchiveEntry e;
    e.name = n;
    e.size = 100;
    if (!link.empty()) {
      e.type = EntryType::symlink;
      e.link_target = link;
    }
    l.entries.push_back(e);
  }
  return l;
}

Toolkit toolkit(Os os, std::string version, std::string dll_dir = "bin") {
  Toolkit t;
  t.root = os == Os::windows ? "C:/CUDA/v" + version : "/usr/local/cuda-" + version;
  t.version = version;
  t.os = os;
  t.include_dir = "include";
  t.dll_dir = os == Os::windows ? dll_dir : "";
  t.lib_dir = os == Os::windows ? "lib/x64" : "lib64";
  return t;
}

ArchiveName name(const char* n) {
  auto r = parse_archive_name(n);
  REQUIRE(r);
  return *r;
}

const PlanStep* step_for(const InstallPlan& p, const std::string& target) {
  for (const auto& s : p.steps)
    if (s.target == target) return &s;
  return nullptr;
}

const std::vector<SupportRow> no_support;
const std::vector<std::string> nothing;

} // namespace

TEST_CASE("Windows 9.1 zip lands in bin, include and lib/x64, LICENSE in the state folder", "[install_plan]") {
  const auto n = name("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  const std::string top = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/";
  const auto l = listing_of({{top + "bin/cudnn64_9.dll", ""}, {top + "bin/cudnn_ops64_9.dll", ""}, {top + "include/cudnn.h", ""},
                             {top + "lib/x64/cudnn.lib", ""}, {top + "LICENSE", ""}});
  const auto t = toolkit(Os::windows, "12.4");
  const auto support = Catalog::embedded().support_for("9.1.0", "12");
  std::vector<SupportRow> rows;
  for (const auto* r : support) rows.push_back(*r);
  const auto p = make_install_plan({l, n, t, rows, nothing});
  REQUIRE(p);
  CHECK(step_for(*p, "bin/cudnn64_9.dll"));
  CHECK(step_for(*p, "bin/cudnn_ops64_9.dll"));
  CHECK(step_for(*p, "include/cudnn.h"));
  CHECK(step_for(*p, "lib/x64/cudnn.lib"));
  CHECK(step_for(*p, ".cudnnctl/cudnn-9.1.0.70-LICENSE"));
  CHECK(p->steps.size() == 5);
}

TEST_CASE("a toolkit any of NVIDIA's rows for the build lists fits, one no row lists is refused naming every row", "[install_plan]") {
  // 9.10.2 cuda12: NVIDIA lists it in a 12.8-12.9 row (Blackwell) and a 12.0-12.9 row; the first must not decide alone
  const auto n = name("cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz");
  const std::string top = "cudnn-linux-x86_64-9.10.2.21_cuda12-archive/";
  const auto l = listing_of({{top + "lib/libcudnn.so.9.10.2", ""}, {top + "include/cudnn.h", ""}, {top + "LICENSE", ""}});
  std::vector<SupportRow> rows;
  for (const auto* r : Catalog::embedded().support_for("9.10.2", "12")) rows.push_back(*r);
  REQUIRE(rows.size() >= 2);
  REQUIRE(rows.front().cuda_toolkits.front() != "12.0");  // the narrow row comes first: what made 12.4 fail before
  CHECK(make_install_plan({l, n, toolkit(Os::linux_os, "12.4"), rows, nothing}));
  CHECK(make_install_plan({l, n, toolkit(Os::linux_os, "12.9"), rows, nothing}));
  rows.erase(std::remove_if(rows.begin(), rows.end(), [](const SupportRow& r) { return r.cuda_toolkits.empty() || r.cuda_toolkits.front() == "12.0"; }),
             rows.end());
  const auto narrow = make_install_plan({l, n, toolkit(Os::linux_os, "12.4"), rows, nothing});
  REQUIRE(!narrow);
  CHECK(narrow.error().code == ErrorCode::incompatible);
  CHECK_THAT(narrow.error().message, Catch::Matchers::Contains("lists CUDA 12.8-12.9, not 12.4"));
}

TEST_CASE("9.18+ bin/x64 archives and CUDA 13 bin/x64 toolkits never nest", "[install_plan]") {
  const auto n = name("cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip");
  const std::string top = "cudnn-windows-x86_64-9.19.0.56_cuda13-archive/";
  const auto l = listing_of({{top + "bin/x64/cudnn64_9.dll", ""}, {top + "lib/x64/cudnn.lib", ""}});
  const auto into_x64 = make_install_plan({l, n, toolkit(Os::windows, "13.0", "bin/x64"), no_support, nothing});
  REQUIRE(into_x64);
  CHECK(step_for(*into_x64, "bin/x64/cudnn64_9.dll"));
  const auto into_bin = make_install_plan({l, n, toolkit(Os::windows, "13.0", "bin"), no_support, nothing});
  REQUIRE(into_bin);
  CHECK(step_for(*into_bin, "bin/cudnn64_9.dll"));
  const auto old = name("cudnn-windows-x86_64-8.6.0.163_cuda11-archive.zip");
  const auto l8 = listing_of({{"cudnn-windows-x86_64-8.6.0.163_cuda11-archive/lib/cudnn.lib", ""},
                              {"cudnn-windows-x86_64-8.6.0.163_cuda11-archive/bin/cudnn64_8.dll", ""}});
  const auto p8 = make_install_plan({l8, old, toolkit(Os::windows, "11.8"), no_support, nothing});
  REQUIRE(p8);
  CHECK(step_for(*p8, "lib/x64/cudnn.lib"));  // 8.3-8.7 keep import libraries in lib\ without x64
}

TEST_CASE("Linux tarballs keep symlink chains, legacy cuda/ archives map too", "[install_plan]") {
  const auto n = name("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
  const std::string top = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/";
  const auto l = listing_of({{top + "lib/libcudnn.so.9.19.0", ""}, {top + "lib/libcudnn.so.9", "libcudnn.so.9.19.0"},
                             {top + "lib/libcudnn.so", "libcudnn.so.9"}, {top + "include/cudnn_version.h", ""}});
  const auto p = make_install_plan({l, n, toolkit(Os::linux_os, "13.0"), no_support, nothing});
  REQUIRE(p);
  const auto* link = step_for(*p, "lib64/libcudnn.so.9");
  REQUIRE(link);
  CHECK(link->kind == StepKind::make_symlink);
  CHECK(link->link_target == "libcudnn.so.9.19.0");
  CHECK(step_for(*p, "lib64/libcudnn.so.9.19.0")->kind == StepKind::copy_file);

  const auto legacy = name("cudnn-11.2-linux-x64-v8.1.1.33.tgz");
  const auto ll = listing_of({{"cuda/include/cudnn.h", ""}, {"cuda/lib64/libcudnn.so.8.1.1", ""}, {"cuda/NVIDIA_SLA_cuDNN_Support.txt", ""}});
  const auto lp = make_install_plan({ll, legacy, toolkit(Os::linux_os, "11.2"), no_support, nothing});
  REQUIRE(lp);
  CHECK(step_for(*lp, "lib64/libcudnn.so.8.1.1"));
  CHECK(step_for(*lp, ".cudnnctl/cudnn-8.1.1.33-NVIDIA_SLA_cuDNN_Support.txt"));
}

TEST_CASE("incompatible targets are refused unless --force", "[install_plan]") {
  const auto win = name("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  const auto l = listing_of({{"cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/cudnn64_9.dll", ""}});
  const auto wrong_os = make_install_plan({l, win, toolkit(Os::linux_os, "12.4"), no_support, nothing});
  REQUIRE_FALSE(wrong_os);
  CHECK(wrong_os.error().code == ErrorCode::incompatible);
  CHECK(exit_code_for(wrong_os.error().code) == ExitCode::incompatible);
  const auto wrong_major = make_install_plan({l, win, toolkit(Os::windows, "13.0"), no_support, nothing});
  REQUIRE_FALSE(wrong_major);
  CHECK_THAT(wrong_major.error().message, Catch::Contains("CUDA 12.x"));

  std::vector<SupportRow> rows;
  for (const auto* r : Catalog::embedded().support_for("9.1.0", "12")) rows.push_back(*r);
  const auto outside = make_install_plan({l, win, toolkit(Os::windows, "12.6"), rows, nothing});
  REQUIRE_FALSE(outside);
  CHECK_THAT(outside.error().message, Catch::Contains("12.0-12.4") && Catch::Contains("not 12.6"));
  const auto forced = make_install_plan({l, win, toolkit(Os::windows, "12.6"), rows, nothing, true});
  REQUIRE(forced);
  CHECK(forced->warnings.size() == 1);
}

TEST_CASE("non-cuDNN members and unknown places are refused, stale cuDNN files are removed", "[install_plan]") {
  const auto n = name("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
  const std::string top = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/";
  const auto t = toolkit(Os::linux_os, "13.0");
  const auto cuda_h = make_install_plan({listing_of({{top + "include/cuda.h", ""}}), n, t, no_support, nothing});
  REQUIRE_FALSE(cuda_h);
  CHECK(cuda_h.error().code == ErrorCode::archive_layout);
  CHECK_THAT(cuda_h.error().message, Catch::Contains("cuda.h"));
  CHECK_FALSE(make_install_plan({listing_of({{top + "share/doc/x", ""}}), n, t, no_support, nothing}));
  CHECK_FALSE(make_install_plan({listing_of({{"elsewhere/lib/libcudnn.so", ""}}), n, t, no_support, nothing}));
  // a name that only starts like cuDNN's is not cuDNN's (the contract's rule, the one the stale rule uses too):
  // it would land in the toolkit and never be removed again
  for (const std::string member : {"lib/libcudnnx.so", "include/cudnn-extra.h", "lib/libcudnn_frontend.so", "include/cudnn_frontend.h"}) {
    INFO(member);
    const auto refused = make_install_plan({listing_of({{top + member, ""}}), n, t, no_support, nothing});
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("is not a cuDNN file"));
  }
  CHECK(make_install_plan({listing_of({{top + "lib/libcudnn_engines_tensor_ir.so.9", ""}}), n, t, no_support, nothing}));

  const std::vector<std::string> existing = {"lib64/libcudnn.so.9.19.0", "lib64/libcudnn_cnn_infer.so.8", "lib64/libcublas.so.13",
                                             "include/cudnn_version.h"};
  const auto p = make_install_plan({listing_of({{top + "lib/libcudnn.so.9.19.0", ""}, {top + "include/cudnn_version.h", ""}}), n, t,
                                    no_support, existing});
  REQUIRE(p);
  CHECK(step_for(*p, "lib64/libcudnn.so.9.19.0")->replaces);
  CHECK(step_for(*p, "include/cudnn_version.h")->replaces);
  const auto* stale = step_for(*p, "lib64/libcudnn_cnn_infer.so.8");
  REQUIRE(stale);
  CHECK(stale->kind == StepKind::remove_stale);
  CHECK_FALSE(step_for(*p, "lib64/libcublas.so.13"));  // never touches what is not cuDNN's
}
