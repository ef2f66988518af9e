// machine/loader_view.hpp: this host's loader gathered once per run (the ld.so cache read once, whoever asks), the
// loader's winner, a library looked up along its order, and the releases the copies on it mix.
#include <catch2/catch.hpp>

#include <filesystem>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/machine/machine.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const std::vector<std::string> k_subs{"_adv", "_cnn", "_engines_precompiled", "_engines_runtime_compiled", "_graph", "_heuristic", "_ops"};

// a cuDNN 9 folder: libcudnn.so.VERSION with its .so.9 link and each sub-library's loader name
void cudnn_folder(const fs::path& dir, const std::string& version, const std::vector<std::string>& subs) {
  put(dir / ("libcudnn.so." + version), "main " + version);
  fs::create_symlink("libcudnn.so." + version, dir / "libcudnn.so.9");
  for (const auto& s : subs) put(dir / ("libcudnn" + s + ".so.9"), s + " " + version);
}

std::string ld_cache_of(const fs::path& dir, const std::vector<std::string>& subs) {
  std::string text = "9 libs found in cache `/etc/ld.so.cache'\n";
  text += "\tlibcudnn.so.9 (libc6,x86-64) => " + (dir / "libcudnn.so.9").string() + "\n";
  for (const auto& s : subs) text += "\tlibcudnn" + s + ".so.9 (libc6,x86-64) => " + (dir / ("libcudnn" + s + ".so.9")).string() + "\n";
  return text;
}

} // namespace

TEST_CASE("machine: the loader is gathered once, with its winner, a look-up and the releases its copies mix", "[machine][loader_view]") {
  TempDir tmp;
  const auto bundle = tmp.path() / "venv/nvidia/cudnn/lib";  // first on LD_LIBRARY_PATH, 9.21 without tensor_ir
  cudnn_folder(bundle, "9.21.0", k_subs);
  auto system_subs = k_subs;
  system_subs.push_back("_engines_tensor_ir");
  const auto system = tmp.path() / "usr/lib/x86_64-linux-gnu";  // the ld.so cache's, 9.23 with it
  cudnn_folder(system, "9.23.2", system_subs);

  int reads = 0;
  int asked = 0;
  auto env = std::make_shared<platform::MapEnvironment>(std::map<std::string, std::string>{{std::string("LD_LIBRARY_PATH"), bundle.string()}});
  Machine m({}, [&](const std::string&) { ++asked; return MachineGpus{}; }, env, [&] { ++reads; return Result<std::string>(ld_cache_of(system, system_subs)); });
  CHECK(reads == 0);  // nothing read before a reader asks

  auto& loader = m.loader();
  CHECK(loader.cudnn_dir() == bundle.string());
  const auto tensor_ir = loader.look_up("libcudnn_engines_tensor_ir.so.9");
  CHECK(tensor_ir.found == (system / "libcudnn_engines_tensor_ir.so.9").string());
  CHECK(tensor_ir.via == "ld.so cache");

  const auto mixed = loader.mixed_release_findings(9);
  REQUIRE(mixed.size() == 1);
  CHECK_THAT(mixed[0], Catch::StartsWith(bundle.string() + " (cuDNN 9.21.0") && Catch::Contains("has no libcudnn_engines_tensor_ir.so.9") &&
                           Catch::Contains("the loader takes it from " + system.string() + " (cuDNN 9.23.2") && Catch::Contains("; fix: "));
  CHECK(&loader.cudnn_copies(9) == &loader.cudnn_copies(9));  // scanned once per major

  Machine copy = m;  // a copy of the run's machine shares what its loader gathered
  CHECK(&copy.loader() == &loader);
  CHECK(reads == 1);
  CHECK(loader.cache_reads() == 1);
  CHECK(asked == 0);  // the loader's facts start no probe child

  SECTION("one copy, complete: no mix, said in a sentence") {
    TempDir other;
    cudnn_folder(other.path() / "lib", "9.23.2", system_subs);
    Machine alone({}, {}, std::make_shared<platform::MapEnvironment>(std::map<std::string, std::string>{{std::string("LD_LIBRARY_PATH"), (other.path() / "lib").string()}}),
                  [] { return Result<std::string>(fail(ErrorCode::io, "no ldconfig here", "")); });
    const auto none = alone.loader().mixed_release_findings(9);
    REQUIRE(none.size() == 1);
    CHECK_THAT(none[0], Catch::StartsWith("no cuDNN 9 copy on this machine's loader path (1 found) lacks a sub-library"));
    CHECK(alone.loader().ld_cache_problem() == "no ldconfig here");
  }
}
