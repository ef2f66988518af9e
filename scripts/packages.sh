# Sourced by scripts/setup.sh and scripts/test.sh: installs the Debian packages given that are missing.
#   ensure_packages WHAT PACKAGE...     (WHAT names the set in the message: "build", "tests")
ensure_packages() {
  local what=$1; shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "setup: installing for the $what: ${missing[*]}" >&2
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
