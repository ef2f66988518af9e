#pragma once
// The failure signatures the doctor knows: one table, used by the doctor for every cause and fix it
// prints, and by `cudnnctl __generate troubleshooting` for docs/troubleshooting.md (one source of the text).
#include <span>
#include <string>
#include <string_view>

namespace cudnnctl {

struct Signature {
  std::string_view id;       // e.g. "driver.stub"
  std::string_view check;    // the doctor check that reports it, e.g. "driver.library"
  int layer;
  std::string_view title;
  std::string_view symptom;  // what users see and paste (may be empty)
  std::string_view cause;
  std::string_view fix;
  bool harmless = false;     // noise: the message is printed although everything works (`cudnnctl explain` says so)
};

std::span<const Signature> signatures();
/// The signature with this id; a missing id is a programming error (terminates).
const Signature& signature(std::string_view id);
/// docs/troubleshooting.md, generated from the table.
std::string troubleshooting_markdown();

} // namespace cudnnctl
