#pragma once
// The failure signatures the doctor knows: one table (data/failure-signatures.json, embedded), used by the
// doctor for every cause and fix it prints, by explain and trace, and by `cudnnctl __generate
// troubleshooting` for docs/troubleshooting.md (one source of the text).
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cudnnctl {

/// One shape of a message a signature's condition prints: every piece occurs in the line (lower case, ASCII
/// case-insensitive). The doctor check that detects the condition declares it (data/failure-signatures.json's
/// "messages"), and explain reads it from there: the knowledge of a condition lives in one row.
struct MessageShape {
  std::string_view all_of[3];
  std::string_view also[2];  // other signatures the same message can mean
  bool first = false;        // tried before a line's pieces are decoded: its context decides more than they do
};

struct Signature {
  std::string_view id;       // e.g. "driver.stub"
  std::string_view check;    // the doctor check that reports it, e.g. "driver.library"
  int layer;
  std::string_view title;
  std::string_view symptom;  // what users see and paste (may be empty)
  std::string_view cause;
  std::string_view fix;
  bool harmless = false;     // noise: the message is printed although everything works (`cudnnctl explain` says so)
  std::span<const MessageShape> messages;  // the messages its condition prints (empty: silent, or explain's own)
  std::string_view silent;   // why the condition prints no message of its own (a doctor check's row: this or messages)
  std::string_view decoded;  // the decoders that also read its messages (CUDA's error tables, version statements)
};

std::span<const Signature> signatures();
/// The signature with this id; a missing id is a programming error (terminates).
const Signature& signature(std::string_view id);
/// What is wrong with a failure-signature table in data/failure-signatures.json's format (a missing or
/// empty field, an id twice, a layer outside 1-5, not JSON), or nothing when it is sound.
std::optional<std::string> signature_table_problem(std::string_view json_text);
/// docs/troubleshooting.md, generated from the table.
std::string troubleshooting_markdown();

} // namespace cudnnctl
