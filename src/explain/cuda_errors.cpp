#include "cudnnctl/explain/cuda_errors.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace embedded {
std::string_view cuda_errors_json();  // data/cuda-errors.json, embedded by CMake
}

int CudaError::code() const {
  for (int i = 2; i >= 0; --i)
    if (codes[i] >= 0) return codes[i];
  return -1;
}

namespace {

struct Table {
  std::vector<std::array<std::string, 5>> text;  // name, signature, meaning, says, says in lower case
  std::vector<CudaError> rows;
};

CudaErrorKind kind_of(const std::string& k, const std::string& name) {
  if (k == "setup") return CudaErrorKind::setup;
  if (k == "kernel") return CudaErrorKind::kernel;
  if (k == "memory") return CudaErrorKind::memory;
  if (k == "program") return CudaErrorKind::program;
  if (k == "unknown") return CudaErrorKind::unknown;
  throw std::runtime_error(fmt::format("'{}' has the kind '{}' (setup, kernel, memory, program or unknown)", name, k));
}

Table parse_table(std::string_view json_text) {
  const auto doc = nlohmann::json::parse(json_text);
  if (doc.value("schema", 0) != 1) throw std::runtime_error("schema is not 1");
  const auto& list = doc.at("errors");
  Table t;
  t.text.reserve(list.size());  // the views point into these strings: no reallocation after this
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<CudaError> rows;
  for (const auto& row : list) {
    const auto name = row.at("name").get<std::string>();
    const auto api = row.at("api").get<std::string>();
    if (name.empty()) throw std::runtime_error("a row without a name");
    if (api != "runtime" && api != "driver") throw std::runtime_error(fmt::format("'{}' has the api '{}'", name, api));
    if (!seen.insert({api, name}).second) throw std::runtime_error(fmt::format("'{}' is listed twice", name));
    CudaError e;
    e.api = api == "runtime" ? CudaApi::runtime : CudaApi::driver;
    const auto& codes = row.at("codes");
    static constexpr const char* majors[] = {"11", "12", "13"};
    bool any = false;
    for (int i = 0; i < 3; ++i) {
      const auto& c = codes.at(majors[i]);
      if (!c.is_null()) e.codes[i] = c.get<int>(), any = true;
      if (e.codes[i] < -1) throw std::runtime_error(fmt::format("'{}' has a negative number", name));
    }
    if (!any) throw std::runtime_error(fmt::format("'{}' has no number in any major", name));
    e.kind = kind_of(row.at("kind").get<std::string>(), name);
    const auto signature = row.value("signature", std::string());
    if (e.kind == CudaErrorKind::setup && signature.empty()) throw std::runtime_error(fmt::format("'{}' is a set-up error without a signature", name));
    const auto says = row.value("says", std::string());
    t.text.push_back({name, signature, row.at("meaning").get<std::string>(), says, to_lower_ascii(says)});
    rows.push_back(e);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].name = t.text[i][0];
    rows[i].signature = t.text[i][1];
    rows[i].meaning = t.text[i][2];
    rows[i].says = t.text[i][3];
  }
  t.rows = std::move(rows);
  return t;
}

const Table& table() {
  static const Table t = [] {
    try {
      return parse_table(embedded::cuda_errors_json());
    } catch (const std::exception& e) {
      // the build embeds data/cuda-errors.json and a test parses it: this is a broken build
      std::fprintf(stderr, "cudnnctl: the built-in CUDA error table (data/cuda-errors.json) is invalid: %s\n", e.what());
      std::abort();
    }
  }();
  return t;
}

bool has(const std::string& lower, std::string_view piece) { return lower.find(piece) != std::string::npos; }

// The row whose cudaGetErrorString text the line carries (the longest such text; the runtime row of the two APIs),
// of at least `min_len` characters: a line that names no CUDA counts only a text long enough to be CUDA's alone.
const CudaError* by_text(const std::string& lower, std::size_t min_len) {
  const CudaError* best = nullptr;
  std::size_t best_len = 0;
  const auto& t = table();
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& says = t.text[i][4];
    if (says.size() < min_len || says.size() <= best_len || !has(lower, says)) continue;
    best = &t.rows[i], best_len = says.size();
  }
  if (best && best->api == CudaApi::driver)
    for (const auto& r : t.rows)
      if (r.api == CudaApi::runtime && r.says == best->says) return &r;
  return best;
}

struct NumberForm {
  std::regex re;
  CudaApi api;
  bool needs_cuda;  // the line must name CUDA for the number to be CUDA's
};

const std::vector<NumberForm>& number_forms() {
  static const std::vector<NumberForm> forms = [] {
    const auto icase = std::regex::icase;
    std::vector<NumberForm> f;
    f.push_back({std::regex(R"(code=([0-9]+)\()", icase), CudaApi::runtime, false});                  // CUDA samples' helper_cuda.h
    f.push_back({std::regex(R"(cudaSuccess[^()]*\(([0-9]+) vs\. 0\))", icase), CudaApi::runtime, false});  // glog CHECK_EQ (Caffe, MXNet)
    f.push_back({std::regex(R"(cudaSuccess[^()]*\(0 vs\. ([0-9]+)\))", icase), CudaApi::runtime, false});
    f.push_back({std::regex(R"(\(([0-9]+) vs\. 0\)[^a-z]*cuda)", icase), CudaApi::runtime, false});
    f.push_back({std::regex(R"(cudaapierror: \[([0-9]+)\])", icase), CudaApi::driver, false});        // numba
    f.push_back({std::regex(R"(cuda (?:runtime )?error\s*\(\s*([0-9]+)\s*\))", icase), CudaApi::runtime, false});  // Paddle, THC
    f.push_back({std::regex(R"(cuda failure ([0-9]+)\b)", icase), CudaApi::runtime, false});          // ONNX Runtime, CNTK
    f.push_back({std::regex(R"(cuda error ([0-9]+)\b)", icase), CudaApi::runtime, false});            // ggml, AMReX
    f.push_back({std::regex(R"(\berror=([0-9]+)\b)", icase), CudaApi::runtime, true});                // THCudaCheck
    f.push_back({std::regex(R"(\berror ([0-9]+): )", icase), CudaApi::runtime, true});                // PyTorch's device count
    f.push_back({std::regex(R"(\breturned ([0-9]+)\b)", icase), CudaApi::runtime, true});             // "cudaGetDeviceCount returned 802"
    return f;
  }();
  return forms;
}

} // namespace

std::span<const CudaError> cuda_errors() { return table().rows; }

const CudaError* find_cuda_error(std::string_view name) {
  const auto lower = to_lower_ascii(name);
  for (const auto& r : table().rows)
    if (to_lower_ascii(r.name) == lower) return &r;
  return nullptr;
}

const CudaError* cuda_error_by_code(CudaApi api, int code) {
  for (const auto& r : table().rows)
    if (r.api == api && (r.codes[0] == code || r.codes[1] == code || r.codes[2] == code)) return &r;
  return nullptr;
}

std::optional<std::string> cuda_error_table_problem(std::string_view json_text) {
  try {
    parse_table(json_text);
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

std::vector<CudaErrorMention> cuda_errors_in(std::string_view text) {
  const std::string line(text);
  const auto lower = to_lower_ascii(line);
  std::vector<CudaErrorMention> out;
  // By name: cudaErrorX (runtime) and CUDA_ERROR_X (driver).
  static const std::regex name_re(R"(\b(cudaError[A-Z][A-Za-z0-9]*|CUDA_ERROR_[A-Z0-9_]+)\b)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), name_re); it != std::sregex_iterator(); ++it)
    if (const auto* e = find_cuda_error((*it)[1].str())) out.push_back({e, -1, false, std::string(e->name)});
  // By number, in a wording that says which API the number is of.
  int number = -1;
  CudaApi api = CudaApi::runtime;
  const bool names_cuda = has(lower, "cuda");
  for (const auto& f : number_forms()) {
    std::smatch m;
    if ((f.needs_cuda && !names_cuda) || !std::regex_search(line, m, f.re)) continue;
    number = std::atoi(m[1].str().c_str()), api = f.api;
    break;
  }
  const CudaError* text_row = by_text(lower, names_cuda || number >= 0 ? 8 : 24);
  if (!out.empty()) {
    if (number >= 0) out.front().number = number;
    return out;
  }
  const CudaError* numbered = number > 0 ? cuda_error_by_code(api, number) : nullptr;
  if (text_row) {
    // The text decides: a number beside it that is not its number is CUDA 10.0's or older numbering (38, 59, 77).
    const bool old = number > 0 && (!numbered || (numbered != text_row && numbered->says != text_row->says));
    out.push_back({text_row, number, old, fmt::format("the text '{}'{}", text_row->says, number > 0 ? fmt::format(" (error {})", number) : "")});
    return out;
  }
  if (numbered) out.push_back({numbered, number, false, fmt::format("error {}", number)});
  return out;
}

} // namespace cudnnctl
