#include "cudnnctl/explain/log_reader.hpp"

#include <algorithm>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/explain/cuda_errors.hpp"

namespace cudnnctl {

namespace {

constexpr std::size_t k_refine_lines = 3;  // how far after a vague message the line naming its cause may come

// Matches that say less than a line after them may: the cause named by a later line within k_refine_lines
// (one of the match's alternatives) stands in its place.
bool vague(const ExplainMatch& m) { return m.signature->id == "driver.no-device"; }

bool refines(const ExplainMatch& held, const ExplainMatch& later) {
  return std::find(held.also.begin(), held.also.end(), later.signature) != held.also.end();
}

} // namespace

std::optional<ExplainMatch> out_of_memory_root(std::string_view line, std::size_t line_no) {
  const auto lower = to_lower_ascii(line.substr(0, 4096));
  bool oom = lower.find("cuda out of memory") != std::string::npos || lower.find("outofmemoryerror") != std::string::npos;
  for (const auto& e : cuda_errors_in(line.substr(0, 4096)))
    if (e.error->kind == CudaErrorKind::memory) oom = true;
  if (!oom) return std::nullopt;
  ExplainMatch m;
  m.line = line_no;
  m.text = std::string(line.substr(0, 500));
  m.signature = &signature("workload.out-of-memory");
  m.detail = "the GPU ran out of memory first: the cuDNN or CUDA errors after this line follow from it";
  return m;
}

void LogReader::emit(ExplainMatch m, std::vector<ExplainMatch>& out) {
  if (held_root_ && !m.signature->harmless) {
    folder_.fold(*held_root_);
    out.push_back(std::move(*held_root_));
    held_root_.reset();
  }
  folder_.fold(m);
  out.push_back(std::move(m));
}

std::vector<ExplainMatch> LogReader::feed(std::string_view line, std::size_t line_no) {
  std::vector<ExplainMatch> out;
  auto found = explain_line(line, line_no);
  if (held_vague_ && (line_no > vague_until_ || found.empty() == false)) {
    const bool refined = !found.empty() && refines(*held_vague_, found.front());
    if (refined) {
      found.front().detail += (found.front().detail.empty() ? "" : "; ") +
                              std::string("it names the cause of line ") + std::to_string(held_vague_->line) + ": " + held_vague_->text;
    } else {
      emit(std::move(*held_vague_), out);
    }
    held_vague_.reset();
  }
  if (found.empty()) {
    if (!held_root_ && folder_.first_cause() == 0)
      if (auto root = out_of_memory_root(line, line_no)) held_root_ = std::move(root);
    return out;
  }
  for (auto& m : found) {
    if (!held_vague_ && out.empty() && vague(m)) {
      held_vague_ = std::move(m);
      vague_until_ = line_no + k_refine_lines;
      continue;
    }
    emit(std::move(m), out);
  }
  return out;
}

std::vector<ExplainMatch> LogReader::finish() {
  std::vector<ExplainMatch> out;
  if (held_vague_) emit(std::move(*held_vague_), out);
  held_vague_.reset();
  held_root_.reset();  // an out of memory that nothing followed is not named
  return out;
}

} // namespace cudnnctl
