#pragma once
// Kubernetes' label rules (k8s.io/apimachinery validation: IsQualifiedName, IsValidLabelValue) and Node
// Feature Discovery's rules on top (a namespace is required; kubernetes.io and its sub-domains are denied
// except feature.node.kubernetes.io and profile.node.kubernetes.io), for the NFD feature file that doctor
// --nfd writes. Pure: no I/O.
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

/// Why `key` ("<prefix>/<name>") is not a label key NFD accepts; nullopt when it is. The name: 1-63
/// characters, [A-Za-z0-9] at both ends, [-A-Za-z0-9_.] between; the prefix: a lower-case DNS-1123
/// subdomain of at most 253 characters, required, and not in kubernetes.io's reserved namespaces.
std::optional<std::string> nfd_label_key_problem(std::string_view key);

/// Why `value` is not a label value; nullopt when it is (empty, or 1-63 characters of the name's pattern).
std::optional<std::string> label_value_problem(std::string_view value);

/// `text` made a label value where it can be: each character outside [-A-Za-z0-9_.] becomes '-' ("9.1.0+cuda12"
/// -> "9.1.0-cuda12"), then what is not alphanumeric is cut from both ends. nullopt when the result would
/// be longer than 63 characters (cutting would change its meaning) or empty while `text` was not.
std::optional<std::string> to_label_value(std::string_view text);

} // namespace cudnnctl
