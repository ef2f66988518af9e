#include "cudnnctl/child/child_channel.hpp"

#include <ostream>
#include <sstream>

#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

void ChildChannel::emit(std::string_view step, nlohmann::json fields) {
  nlohmann::json line{{"step", step}};
  line.update(fields);
  m_out << line.dump() << "\n" << std::flush;
}

std::vector<nlohmann::json> read_json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) out.push_back(std::move(j));
  }
  return out;
}

Result<ChildSteps> run_child_steps(const std::vector<std::string>& argv, int timeout_ms) {
  auto child = platform::run_child(argv, {}, timeout_ms);
  if (!child) return Unexpected<Error>(child.error());
  ChildSteps r;
  r.signal = child->signal;
  r.timed_out = child->timed_out;
  r.err = child->err.size() > 4000 ? child->err.substr(child->err.size() - 4000) : child->err;
  r.steps = read_json_lines(child->out);
  return r;
}

} // namespace cudnnctl
