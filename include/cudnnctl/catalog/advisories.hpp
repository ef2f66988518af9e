#pragma once
// Known-bad cuDNN releases (data/cudnn-advisories.json, built into the binary): a version range, what goes
// wrong, on which GPUs or features, the first release that fixes it, and where that is documented.
// `inspect`, `install` and the doctor warn with them; a warning never changes an exit code.
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/version.hpp"

namespace cudnnctl {

struct Advisory {
  std::string id;
  Version from;    // first affected release
  Version before;  // first release past the range (exclusive)
  std::string fixed_in;
  std::string fixed_in_note;
  std::string symptom;
  std::string affected;
  std::string workaround;
  std::vector<std::string> sources;
};

/// Parses an advisory table; every row needs an id, a non-empty range, a symptom and an https source.
Result<std::vector<Advisory>> parse_advisories(std::string_view json_text, const std::string& origin);

/// The built-in table (parsed once).
const std::vector<Advisory>& builtin_advisories();

/// The rows whose range holds `v` (compared as a release major.minor.patch: the build number is ignored).
std::vector<Advisory> advisories_for(const Version& v, const std::vector<Advisory>& table);

/// One line for a warning: "cuDNN 9.12.0 is in a known-bad range (9.11.0 to before 9.13.0): <symptom> (<affected>);
/// fixed in 9.13.0: <workaround> [<source>]".
std::string advisory_warning(const Version& v, const Advisory& a);

} // namespace cudnnctl
