#include "cudnnctl/explain/signatures.hpp"

#include <algorithm>
#include <array>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cudnnctl {

namespace embedded {
std::string_view signatures_json();  // data/failure-signatures.json, embedded by CMake
}

namespace {

// A parsed table: the rows' text, and the Signature views into it.
struct Table {
  std::vector<std::array<std::string, 8>> text;  // id, check, title, symptom, cause, fix, silent, decoded
  std::deque<std::string> pieces;                 // the message shapes' pieces (a deque: the views stay valid)
  std::vector<std::vector<MessageShape>> shapes;  // per row
  std::vector<Signature> rows;
};

bool lower_ascii_only(const std::string& s) {
  return std::none_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// A row's "messages": [{"shape": [1-3 pieces], "also": [0-2 ids], "first": bool}].
std::vector<MessageShape> shapes_of(const nlohmann::json& row, const std::string& id, Table& t) {
  std::vector<MessageShape> out;
  if (!row.contains("messages")) return out;
  for (const auto& m : row.at("messages")) {
    const auto& pieces = m.at("shape");
    const auto also = m.value("also", nlohmann::json::array());
    if (pieces.empty() || pieces.size() > 3) throw std::runtime_error(fmt::format("'{}' has a message shape of {} pieces (1 to 3)", id, pieces.size()));
    if (also.size() > 2) throw std::runtime_error(fmt::format("'{}' has a message shape with {} alternatives (at most 2)", id, also.size()));
    MessageShape s;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const auto& piece = t.pieces.emplace_back(pieces[i].get<std::string>());
      if (piece.empty() || !lower_ascii_only(piece))
        throw std::runtime_error(fmt::format("'{}' has a message piece that is empty or not lower case: '{}'", id, piece));
      s.all_of[i] = piece;
    }
    for (std::size_t i = 0; i < also.size(); ++i) s.also[i] = t.pieces.emplace_back(also[i].get<std::string>());
    s.first = m.value("first", false);
    out.push_back(s);
  }
  return out;
}

std::string text_of(const nlohmann::json& row, const char* key, bool required, std::size_t i) {
  if (!row.contains(key)) {
    if (required) throw std::runtime_error(fmt::format("row {} has no \"{}\"", i, key));
    return {};
  }
  auto v = row.at(key).get<std::string>();
  if (required && v.empty()) throw std::runtime_error(fmt::format("row {} has an empty \"{}\"", i, key));
  return v;
}

Table parse_table(std::string_view json_text) {
  const auto doc = nlohmann::json::parse(json_text);
  if (doc.value("schema", 0) != 1) throw std::runtime_error("schema is not 1");
  const auto& list = doc.at("signatures");
  Table t;
  t.text.reserve(list.size());  // the views below point into these strings: no reallocation after this
  std::set<std::string> ids;
  std::vector<std::pair<int, bool>> numbers;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& row = list[i];
    t.text.push_back({text_of(row, "id", true, i), text_of(row, "check", true, i), text_of(row, "title", true, i),
                      text_of(row, "symptom", false, i), text_of(row, "cause", true, i), text_of(row, "fix", true, i),
                      text_of(row, "silent", false, i), text_of(row, "decoded", false, i)});
    t.shapes.push_back(shapes_of(row, t.text.back()[0], t));
    if (!t.shapes.back().empty() && !t.text.back()[6].empty())
      throw std::runtime_error(fmt::format("'{}' declares messages and is silent", t.text.back()[0]));
    if (!ids.insert(t.text.back()[0]).second) throw std::runtime_error(fmt::format("id '{}' is listed twice", t.text.back()[0]));
    const int layer = row.at("layer").get<int>();
    if (layer < 1 || layer > 5) throw std::runtime_error(fmt::format("'{}' has layer {} (1 to 5)", t.text.back()[0], layer));
    numbers.emplace_back(layer, row.value("harmless", false));
  }
  for (std::size_t i = 0; i < t.text.size(); ++i) {
    const auto& x = t.text[i];
    t.rows.push_back({x[0], x[1], numbers[i].first, x[2], x[3], x[4], x[5], numbers[i].second, t.shapes[i], x[6], x[7]});
  }
  for (const auto& r : t.rows)
    for (const auto& m : r.messages)
      for (auto a : m.also)
        if (!a.empty() && !ids.contains(std::string(a)))
          throw std::runtime_error(fmt::format("'{}' names '{}' as an alternative, which is no row", r.id, a));
  return t;
}

const Table& table() {
  static const Table t = [] {
    try {
      return parse_table(embedded::signatures_json());
    } catch (const std::exception& e) {
      // the build embeds data/failure-signatures.json and CTest parses it: this is a broken build
      std::fprintf(stderr, "cudnnctl: the built-in failure-signature table (data/failure-signatures.json) is invalid: %s\n", e.what());
      std::abort();
    }
  }();
  return t;
}

} // namespace

std::span<const Signature> signatures() { return table().rows; }

std::optional<std::string> signature_table_problem(std::string_view json_text) {
  try {
    parse_table(json_text);
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

const Signature& signature(std::string_view id) {
  for (const auto& s : table().rows)
    if (s.id == id) return s;
  std::abort();
}

std::string troubleshooting_markdown() {
  static const char* layers[] = {"", "Toolkit", "Files", "Loader", "Driver and device", "Workload"};
  std::string out =
      "# Troubleshooting cuDNN set-ups\n\n"
      "Every failure `cudnnctl doctor` recognises, with its cause and fix. Generated from the doctor's own table\n"
      "(`data/failure-signatures.json`) by `cudnnctl __generate troubleshooting`; a test keeps this file in step.\n"
      "Run `cudnnctl doctor` to see which of these applies to a machine (`--json` for CI), `cudnnctl explain LOG` to name\n"
      "the messages of a log, and `cudnnctl trace -- COMMAND` to see which libraries a program really loads.\n";
  int layer = 0;
  std::vector<const Signature*> by_layer;
  for (const auto& s : signatures()) by_layer.push_back(&s);
  std::stable_sort(by_layer.begin(), by_layer.end(), [](const Signature* a, const Signature* b) { return a->layer < b->layer; });
  for (const auto* sp : by_layer) {
    const auto& s = *sp;
    if (s.layer != layer) {
      layer = s.layer;
      out += fmt::format("\n## Layer {}: {}\n", layer, layers[layer]);
    }
    out += fmt::format("\n### {}\n\n", s.title);
    out += fmt::format("- check: `{}` (signature `{}`)\n", s.check, s.id);
    if (!s.symptom.empty()) out += fmt::format("- what you see: {}\n", s.symptom);
    out += fmt::format("- cause: {}\n- fix: {}\n", s.cause, s.fix);
    if (s.harmless) out += "- harmless: yes, the message is noise (`cudnnctl explain` says so)\n";
  }
  return out;
}

} // namespace cudnnctl
