#include <catch2/catch.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/bundle/bundle_plan.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/record.hpp"

using namespace cudnnctl;

namespace {
Bundle torch_lib() {
  Bundle b;
  b.dir = "C:/env/Lib/site-packages/torch/lib";
  b.os = Os::windows;
  b.files = {"cudnn64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll"};
  b.cudnn_major = 9;
  b.version = "9.1.0.70";
  b.cuda_major = 12;
  b.arch = "x64";
  return b;
}
ArchiveLibraries archive_9_10() {
  return {Os::windows, {"cudnn64_9.dll", "cudnn_engines_tensor_ir64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll"}, "9.10.2.21", 12, "x64"};
}
} // namespace

TEST_CASE("RECORD rows: CRLF, quoted fields, sizes, and the hash in RECORD's base64", "[bundle]") {
  const std::string text = "nvidia/cudnn/lib/libcudnn.so.9,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0\r\n"
                           "\"odd,name.txt\",sha256=abc,12\r\n"
                           "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD,,\r\n";
  auto rows = parse_record(text, "RECORD");
  REQUIRE(rows);
  REQUIRE(rows->size() == 3);
  CHECK((*rows)[0].path == "nvidia/cudnn/lib/libcudnn.so.9");
  CHECK((*rows)[1].path == "odd,name.txt");
  CHECK((*rows)[1].size == 12u);
  CHECK(!(*rows)[2].size);
  // the SHA-256 of no bytes, as pip writes it
  CHECK(record_hash_of_hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == (*rows)[0].hash);
  CHECK(!parse_record("a,b\r\n", "RECORD"));
  CHECK(!parse_record("\"a,b,c\r\n", "RECORD"));
  CHECK(!parse_record("a,b,12x\n", "RECORD"));
}

TEST_CASE("versions compare by number, and so does cudnnGetVersion's number", "[bundle]") {
  CHECK(compare_versions("9.10.2.21", "9.1.0.70") > 0);
  CHECK(compare_versions("9.1.0", "9.1.0.0") == 0);
  CHECK(compare_versions("9.1.0.70", "9.19.0") < 0);
  CHECK(cudnn_version_number("9.10.2.21") == 91002u);
  CHECK(cudnn_version_number("9.1.0.70") == 90100u);
  CHECK(cudnn_version_number("8.9.7") == 8907u);
}

TEST_CASE("swap plan: every file set aside, every archive file placed, new sub-libraries named", "[bundle]") {
  auto p = plan_swap(torch_lib(), archive_9_10(), false);
  REQUIRE(p);
  CHECK(p->set_aside == torch_lib().files);
  CHECK(p->place.size() == 4);
  CHECK(p->added == std::vector<std::string>{"cudnn_engines_tensor_ir64_9.dll"});
}

TEST_CASE("swap plan refusals name their reason", "[bundle]") {
  auto refused_with = [](const Bundle& b, const ArchiveLibraries& a, bool down, const std::string& words) {
    auto p = plan_swap(b, a, down);
    REQUIRE(!p);
    CHECK(p.error().code == ErrorCode::bundle_refused);
    INFO(p.error().message);
    CHECK(p.error().message.find(words) != std::string::npos);
  };
  auto a = archive_9_10();
  auto other_major = a;
  other_major.files = {"cudnn64_8.dll", "cudnn_ops_infer64_8.dll"};
  refused_with(torch_lib(), other_major, false, "cuDNN 8");
  auto other_cuda = a;
  other_cuda.cuda_major = 13;
  refused_with(torch_lib(), other_cuda, false, "CUDA 13");
  auto other_arch = a;
  other_arch.arch = "arm64";
  refused_with(torch_lib(), other_arch, false, "arm64");
  auto linux_archive = a;
  linux_archive.os = Os::linux_os;
  linux_archive.files = {"libcudnn.so.9"};
  refused_with(torch_lib(), linux_archive, false, "no cuDNN library for windows");
  auto newer = torch_lib();
  newer.version = "9.11.0.98";
  refused_with(newer, a, false, "PyTorch refuses");
  CHECK(plan_swap(newer, a, true));
  auto unknown = torch_lib();
  unknown.version.clear();
  refused_with(unknown, a, false, "unknown");
  auto empty = torch_lib();
  empty.files.clear();
  empty.cudnn_major = 0;
  refused_with(empty, a, false, "holds no cuDNN");
}

TEST_CASE("bundle state from RECORD and cudnnctl's receipt", "[bundle]") {
  BundleOwner o;
  o.name = "nvidia-cudnn-cu13";
  o.site = "/env/site";
  const std::string h1 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const std::string h2 = std::string(64, 'a');
  o.record = {{"nvidia/cudnn/lib/libcudnn.so.9", record_hash_of_hex(h1), 0}, {"nvidia/cudnn/lib/libcudnn_ops.so.9", record_hash_of_hex(h1), 0}};
  const std::string dir = "/env/site/nvidia/cudnn/lib";
  const std::map<std::string, std::string> original{{"libcudnn.so.9", h1}, {"libcudnn_ops.so.9", h1}};
  std::string note;
  CHECK(record_state(dir, original, o, &note) == BundleState::original);
  auto edited = original;
  edited["libcudnn_ops.so.9"] = h2;
  CHECK(record_state(dir, edited, o, &note) == BundleState::modified);
  CHECK(note.find("libcudnn_ops.so.9") != std::string::npos);
  CHECK(record_state(dir, {{"libcudnn.so.9", h1}}, o, &note) == BundleState::modified);  // a recorded file is missing
  CHECK(record_state(dir, original, std::nullopt, &note) == BundleState::unrecorded);

  BundleReceipt r{dir, "swap", "1-2", "", "a.tar.xz", "", "9.20.0.1", "9.19.0.56", {{"libcudnn.so.9", h1}, {"libcudnn_ops.so.9", h1}},
                  {{"libcudnn.so.9", h2}, {"libcudnn_ops.so.9", h2}}, false, {}};
  const std::map<std::string, std::string> swapped{{"libcudnn.so.9", h2}, {"libcudnn_ops.so.9", h2}};
  CHECK(state_with_receipt(r, swapped, BundleState::modified, &note) == BundleState::swapped);
  CHECK(state_with_receipt(r, original, BundleState::original, &note) == BundleState::reverted);
  CHECK(state_with_receipt(r, edited, BundleState::modified, &note) == BundleState::modified);
  auto reinstalled = original;  // pip leaves a sub-library the swap added
  r.placed.push_back({"libcudnn_engines_tensor_ir.so.9", h2});
  reinstalled["libcudnn_engines_tensor_ir.so.9"] = h2;
  CHECK(state_with_receipt(r, reinstalled, BundleState::modified, &note) == BundleState::reverted);
  r.action = "unbundle";
  CHECK(state_with_receipt(r, {}, BundleState::unrecorded, &note) == BundleState::unbundled);
  CHECK(state_with_receipt(std::nullopt, edited, BundleState::modified, &note) == BundleState::modified);
}

TEST_CASE("a bundle receipt is refused when it names other folders or paths", "[bundle]") {
  BundleReceipt r{"/env/lib", "swap", "1-2", "", "", "", "", "", {{"libcudnn.so.9", "x"}}, {}, false, {}};
  CHECK(parse_bundle_receipt(receipt_text(r), "/env/lib", "receipt.json"));
  CHECK(!parse_bundle_receipt(receipt_text(r), "/other", "receipt.json"));
  auto evil = r;
  evil.originals = {{"../../etc/passwd", "x"}};
  CHECK(!parse_bundle_receipt(receipt_text(evil), "/env/lib", "receipt.json"));
  evil = r;
  evil.id = "../x";
  CHECK(!parse_bundle_receipt(receipt_text(evil), "/env/lib", "receipt.json"));
  CHECK(!parse_bundle_receipt("{", "/env/lib", "receipt.json"));
  CHECK(bundle_state_dir("/s", "/env/lib") != bundle_state_dir("/s", "/env/lib2"));
}

TEST_CASE("a bundle folder is one folder in every spelling Windows accepts, and only in its own spelling elsewhere", "[bundle]") {
  const auto a = bundle_dir_key("C:\\Python311\\Lib\\site-packages\\torch\\lib", Os::windows);
  CHECK(a == "c:/python311/lib/site-packages/torch/lib");
  CHECK(bundle_dir_key("c:/python311/lib/SITE-PACKAGES/torch/lib/", Os::windows) == a);
  CHECK(bundle_dir_key("C:\\", Os::windows) == "c:/");  // a drive's root keeps its slash
  CHECK(bundle_dir_key("/opt/Env/lib", Os::linux_os) == "/opt/Env/lib");
  CHECK(bundle_dir_key("/opt/env/lib", Os::linux_os) != bundle_dir_key("/opt/Env/lib", Os::linux_os));
  // this host (Linux here): folders of other case are other folders, with other state
  CHECK(bundle_state_dir("/s", "/opt/Env/lib") != bundle_state_dir("/s", "/opt/env/lib"));
  CHECK(bundle_state_dir("/s", "/opt/env/lib") == bundle_state_dir("/s", "/opt/env/lib"));
}
