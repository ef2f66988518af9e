#pragma once
// `cudnnctl explain`: names the cuDNN/CUDA loading messages of a log through the doctor's signature table
// (signatures.hpp): which signature, its cause and fix, and whether the message is harmless noise. Pure: the
// command reads the text (bounded) and renders; this matches.
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/explain/signatures.hpp"

namespace cudnnctl {

/// One way a message is recognised: every non-empty `all_of` piece occurs in the line (ASCII case-insensitive).
/// `signatures` names the likeliest signature first, then the others the same message can mean.
struct LogPattern {
  std::string_view all_of[3];
  std::string_view signatures[3];
  bool before_pieces = false;  // tried before the decoded pieces (verdict.hpp): its context decides more than they do
};

struct ExplainMatch {
  std::size_t line = 0;             // 1-based
  std::string text;                 // the line, cut to 500 characters
  const Signature* signature = nullptr;
  std::vector<const Signature*> also;  // other causes the same message can have
  std::string detail;               // what the line itself says (versions compared, the library named), may be empty
  std::string library;              // the library file the verdict is about (as the line names it), may be empty
  std::string library_dir;          // the folder the line gives for it, may be empty
  bool library_windows = false;     // the library is a Windows DLL
  std::size_t folded_under = 0;     // the line of an earlier cause this message follows from (0: a cause itself)
};

std::span<const LogPattern> log_patterns();

/// The matches of one line (none, or the first pattern that fits in its first 4096 characters). `line_no` is 1-based.
std::vector<ExplainMatch> explain_line(std::string_view line, std::size_t line_no);

/// The cuDNN majors a log shows besides the messages (a file listing, a wheel version, "cuDNN 9.2.1"): fed line by
/// line, it adds the installed major to `loader.cudnn-major` matches ("the program wants 8; the log names 9 on
/// line K"). explain_text uses it; a reader that streams lines feeds it the same way.
class CudnnMajorsSeen {
public:
  void feed(std::string_view line, std::size_t line_no);
  void annotate(std::vector<ExplainMatch>& matches) const;

private:
  std::map<std::string, std::size_t> seen_;  // major -> first line that shows it
};

/// Every line of `text` that names a known message, in order, each later one that follows from an earlier cause
/// folded under it (folded_under, log_fold.hpp).
std::vector<ExplainMatch> explain_text(std::string_view text);

} // namespace cudnnctl
