#!/usr/bin/env bash
# The GPU modules depend one way only: gpu (ABI) and child (the child-process channel) at the bottom,
# then workload, then doctor. Fails when a lower module includes a higher one's header, when a lower
# target links a higher one, or when a module's sources are compiled into another module's target
# (how the old doctor <-> workload cycle was hidden).
#   module_deps.sh [ROOT]
set -uo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
bad=0
fail() { echo "module_deps: $*" >&2; bad=1; }

# module -> the modules it must not include (its own level and above, apart from itself)
declare -A forbidden=(
  [gpu]="child workload doctor commands app"
  [child]="gpu workload doctor commands app"
  [workload]="doctor commands app"
  [bundle]="doctor trace workload gpu commands app"
)
for mod in "${!forbidden[@]}"; do
  for dir in "src/$mod" "include/cudnnctl/$mod"; do
    [[ -d $dir ]] || { fail "$dir is missing"; continue; }
    for up in ${forbidden[$mod]}; do
      if hits=$(grep -rn --include='*.cpp' --include='*.hpp' -E "^#include [\"<]cudnnctl/$up/" "$dir"); then
        fail "$mod must not include $up/:"$'\n'"$hits"
      fi
    done
  done
done

# target -> the targets it must not link
declare -A no_link=(
  [cudnnctl_gpu_abi]="cudnnctl_child cudnnctl_workload cudnnctl_doctor cudnnctl_commands"
  [cudnnctl_child]="cudnnctl_gpu_abi cudnnctl_workload cudnnctl_doctor cudnnctl_commands"
  [cudnnctl_workload]="cudnnctl_doctor cudnnctl_commands"
  [cudnnctl_bundle]="cudnnctl_doctor cudnnctl_trace cudnnctl_workload cudnnctl_commands"
)
links_of() {  # the words of every target_link_libraries(<target> ...) call, joined
  awk -v t="$1" '
    /target_link_libraries\(/ { collecting = 0; if ($0 ~ "target_link_libraries\\(" t "[ )]") collecting = 1 }
    collecting { print; if ($0 ~ /\)/) collecting = 0 }' CMakeLists.txt
}
for target in "${!no_link[@]}"; do
  grep -q "add_library($target " CMakeLists.txt || { fail "no target $target in CMakeLists.txt"; continue; }
  links=$(links_of "$target")
  for up in ${no_link[$target]}; do
    grep -qw -- "$up" <<<"$links" && fail "$target must not link $up"
  done
done

# every src/<module>/ file is compiled by its own module's target only
sources_of() {  # the add_library(<target> ...) block
  awk -v t="$1" '
    $0 ~ "add_library\\(" t "[ )]" { collecting = 1 }
    collecting { print; if ($0 ~ /\)/) collecting = 0 }' CMakeLists.txt
}
for pair in gpu:cudnnctl_gpu_abi child:cudnnctl_child workload:cudnnctl_workload doctor:cudnnctl_doctor bundle:cudnnctl_bundle; do
  mod=${pair%%:*}
  target=${pair#*:}
  while read -r other; do
    [[ $other == "$target" ]] && continue
    if sources_of "$other" | grep -q "src/$mod/"; then fail "$other compiles src/$mod/ sources (they belong to $target)"; fi
  done < <(grep -oE 'add_library\(cudnnctl_[a-z_]+' CMakeLists.txt | sed 's/add_library(//')
done

((bad)) && exit 1
echo "module_deps: gpu, child -> workload -> doctor, one way; bundle below doctor, trace and commands"
