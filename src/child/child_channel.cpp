#include "cudnnctl/child/child_channel.hpp"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

void ChildChannel::emit(std::string_view step, nlohmann::json fields) {
  nlohmann::json line{{"step", step}};
  line.update(fields);
  m_out << line.dump() << "\n" << std::flush;
}

void ChildChannel::emit(std::string_view step) { emit(step, nlohmann::json::object()); }

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

namespace {

// how the parent's log names a child: "__probe" -> "probe child"
std::string child_name(const std::vector<std::string>& argv) {
  std::string_view command = argv.size() > 1 ? std::string_view(argv[1]) : std::string_view();
  while (command.starts_with('_')) command.remove_prefix(1);
  return std::string(command) + " child";
}

} // namespace

std::vector<std::string> child_log_options() {
  const auto level = log::current_level();
  if (level == log::Level::off) return {};
  std::vector<std::string> options(static_cast<std::size_t>(level), "-v");
  options.push_back("--log-to-parent");  // with --log-file too: the child relays if it cannot append there
  if (auto file = log::current_file(); !file.empty()) {
    options.push_back("--log-file");
    options.push_back(std::move(file));
  }
  return options;
}

Result<ChildSteps> run_child_steps(const std::vector<std::string>& argv, int timeout_ms) {
  auto with_log = argv;
  for (auto& o : child_log_options()) with_log.push_back(std::move(o));
  CUDNNCTL_TRY_ASSIGN(auto child, platform::run_child(with_log, {}, timeout_ms));
  ChildSteps r;
  r.signal = child.signal;
  r.timed_out = child.timed_out;
  const auto err = log::relay_child_log(child.err, child_name(argv));
  r.err = err.size() > 4000 ? err.substr(err.size() - 4000) : err;
  r.steps = read_json_lines(child.out);
  return r;
}

} // namespace cudnnctl
