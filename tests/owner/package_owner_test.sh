#!/usr/bin/env bash
# Real package managers, not mocks (docs/owners.md): a libcudnn9-cuda-13 .deb built with dpkg-deb from this
# machine's real cuDNN libraries (the realistic fixtures' source, CUDNNCTL_FIXTURE_CUDA_ROOT or /usr/local/cuda;
# the small fake ones where there is none), installed with the real dpkg into a private root; the same as an rpm
# built by rpmbuild and installed by rpm into its own --dbpath; a pacman local database and Debian's
# nvidia-cudnn filelist as text. Then install and uninstall refuse what they own (exit 20, --force or not),
# with nothing changed and the package manager's own verify clean, a /usr toolkit is refused, and a toolkit
# of its own still installs. rpm_sqlite: the same rpm install, with cudnnctl run where no `rpm` program can be
# found, so its owner comes from the rpmdb.sqlite that rpm wrote, read directly (the log says which route).
#   package_owner_test.sh CUDNNCTL {dpkg|rpm|rpm_sqlite|pacman|filelist}
. "$(dirname "$0")/../install/hostile/common.sh" "$1"
KIND=$2
need() { for t in "$@"; do command -v "$t" > /dev/null || { echo "SKIP: no $t on this machine (scripts/test.sh installs it)"; exit 0; }; done; }
SRC=${CUDNNCTL_FIXTURE_CUDA_ROOT:-/usr/local/cuda}/lib64
R=$W/root TK=/usr/local/cuda-13.0
mkdir -p "$R"; mk_tk "$R$TK"
# the package's payload: the runtime in the system folder and (what refusing needs) the same in a toolkit
payload() {   # payload DIR LIBDIR...: libcudnn.so.9.19.0 and libcudnn_graph.so.9.19.0 (+ .so.9 links) into each
  local d=$1 l s; shift
  for l in "$@"; do
    mkdir -p "$d$l"
    for s in "" _graph; do
      if [ -f "$SRC/libcudnn$s.so.9" ]; then cp "$SRC/libcudnn$s.so.9" "$d$l/libcudnn$s.so.9.19.0"
      else cp "$N/lib/libcudnn$s.so.9.19.0" "$d$l/"; fi
      ln -sf "libcudnn$s.so.9.19.0" "$d$l/libcudnn$s.so.9"
    done
  done
}
snapR() { snap "$R" | grep -v "rpmdb\.sqlite-\|\.rpm\.lock"; }  # rpm -qf reads through sqlite's WAL files
inst() { CUDNNCTL_PACKAGE_ROOT=$R "$C" install $N.tar.xz --cuda-path "$1" --sha256 $H --no-path "${@:2}" 2>&1; }

case $KIND in
dpkg)
  need dpkg dpkg-deb
  P=$W/pkg; payload "$P" /usr/lib/x86_64-linux-gnu $TK/lib64; mkdir -p "$P/DEBIAN"
  printf 'Package: libcudnn9-cuda-13\nVersion: 9.19.0.56-1\nArchitecture: amd64\nMaintainer: cudnnctl tests <t@example.invalid>\nProvides: libcudnn9\nDescription: cuDNN runtime (test fixture)\n' > "$P/DEBIAN/control"
  dpkg-deb -Znone --root-owner-group --build "$P" libcudnn9.deb > /dev/null || { echo "FAIL: dpkg-deb"; exit 1; }
  mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"; touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
  D=(dpkg --root="$R" --force-not-root --force-script-chrootless)
  "${D[@]}" -i libcudnn9.deb > dpkg.log 2>&1 || { cat dpkg.log; echo "FAIL: dpkg -i"; exit 1; }
  check "dpkg itself says it owns the toolkit's copy" bash -c '"$@" -S '$TK'/lib64/libcudnn.so.9 | grep -q "^libcudnn9-cuda-13:"' _ "${D[@]}"
  OWNER="dpkg: libcudnn9-cuda-13 9.19.0.56-1" FIX="sudo apt remove libcudnn9-cuda-13"
  hold() { echo "libcudnn9-cuda-13 hold" | "${D[@]}" --set-selections; }
  verify() { local v; v=$("${D[@]}" --verify libcudnn9-cuda-13 2>&1) && [ -z "$v" ] || { echo "$v"; return 1; }; } ;;
rpm|rpm_sqlite)
  need rpm rpmbuild
  T=$W/rpmbuild; mkdir -p "$T/SPECS"
  payload "$W/payload" /usr/lib64 $TK/lib64
  cat > "$T/SPECS/c.spec" <<SPEC
Name: libcudnn9-cuda-13
Version: 9.19.0.56
Release: 1
Summary: cuDNN runtime (test fixture)
License: NVIDIA
AutoReqProv: no
%description
test fixture
%install
mkdir -p %{buildroot}
cp -a $W/payload/. %{buildroot}/
%files
/usr/lib64/libcudnn*
$TK/lib64/libcudnn*
SPEC
  rpmbuild --define "_topdir $T" --define '_build_id_links none' --define '__strip /bin/true' --define '__os_install_post %{nil}' \
    --define 'debug_package %{nil}' -bb "$T/SPECS/c.spec" > rpmbuild.log 2>&1 || { tail -20 rpmbuild.log; echo "FAIL: rpmbuild"; exit 1; }
  RPMQ=("$(command -v rpm)" --root "$R" --dbpath /var/lib/rpm)  # (by its path: rpm_sqlite takes rpm off PATH below)
  "${RPMQ[@]}" --initdb && "${RPMQ[@]}" -i --nodeps --nosignature --ignorearch "$T"/RPMS/*/*.rpm > rpm.log 2>&1 || { cat rpm.log; echo "FAIL: rpm -i"; exit 1; }
  check "rpm itself says it owns the toolkit's copy" bash -c '"$@" -qf '$TK'/lib64/libcudnn.so.9 | grep -q "^libcudnn9-cuda-13-9.19.0.56-1"' _ "${RPMQ[@]}"
  OWNER="rpm: libcudnn9-cuda-13 9.19.0.56-1" FIX="sudo dnf remove libcudnn9-cuda-13"
  hold() { :; }
  verify() { [ -z "$("${RPMQ[@]}" -V libcudnn9-cuda-13)" ]; }
  if [ "$KIND" = rpm_sqlite ]; then  # a PATH with every program of this one but rpm
    check "rpm left no changes in rpmdb.sqlite-wal (it checkpoints on close): the main file holds them" \
      bash -c '[ ! -s "$1/var/lib/rpm/rpmdb.sqlite-wal" ]' _ "$R"
    NB=$W/bin-without-rpm; mkdir -p "$NB"
    IFS=: read -ra dirs <<< "$PATH"
    for d in "${dirs[@]}"; do for f in "$d"/*; do
      b=${f##*/}; [ "$b" != rpm ] && [ -x "$f" ] && [ ! -e "$NB/$b" ] && ln -s "$f" "$NB/$b"
    done; done
    export PATH=$NB
    check "no rpm program can be found" bash -c '! command -v rpm'
    out=$(CUDNNCTL_PACKAGE_ROOT=$R "$C" -v --log-file "$W/owner.log" install $N.tar.xz --cuda-path "$R$TK" --sha256 $H --no-path 2>&1)
    check "cudnnctl read rpm's database directly (its log says so)" \
      bash -c 'grep -q "rpm program .rpm. cannot be run" "$1" && grep -q "rpm.s database read directly: [1-9]" "$1"' _ "$W/owner.log"
    grep -i "owner:" "$W/owner.log" | head -5
  fi ;;
pacman)
  payload "$R" $TK/lib64
  L=$R/var/lib/pacman/local/cudnn-9.19.1.2-1; mkdir -p "$L"
  printf '%%NAME%%\ncudnn\n\n%%VERSION%%\n9.19.1.2-1\n' > "$L/desc"
  printf '%%FILES%%\n%s/\n%s/lib64/\n%s/lib64/libcudnn.so.9\n%s/lib64/libcudnn.so.9.19.0\n' ${TK#/} ${TK#/} ${TK#/} ${TK#/} > "$L/files"
  OWNER="pacman: cudnn 9.19.1.2-1" FIX="sudo pacman -R cudnn"
  hold() { :; }; verify() { :; } ;;
filelist)
  payload "$R" $TK/lib64
  mkdir -p "$R/var/lib/nvidia-cudnn"; printf '%s/lib64/libcudnn_graph.so.9.19.0\n' $TK > "$R/var/lib/nvidia-cudnn/filelist.txt"
  mkdir -p "$R/var/lib/dpkg"; printf 'Package: nvidia-cudnn\nStatus: install ok installed\nVersion: 9.19.0.56~cuda13\n\n' > "$R/var/lib/dpkg/status"
  OWNER="nvidia-cudnn: nvidia-cudnn 9.19.0.56~cuda13" FIX="sudo apt purge nvidia-cudnn"
  hold() { :; }; verify() { :; } ;;
*) echo "usage: package_owner_test.sh CUDNNCTL dpkg|rpm|rpm_sqlite|pacman|filelist"; exit 2 ;;
esac

before=$(snapR)
out=$(inst "$R$TK" --json); rc=$?
echo "$out" | head -c 1200; echo
check "install into a toolkit holding a $KIND-owned cuDNN file: exit 20" [ $rc -eq 20 ]
check "the error id, the owner and its own fix named" bash -c 'grep -q "install.package-owned" <<< "$1" && grep -qF "$2" <<< "$1" && grep -qF "$3" <<< "$1"' _ "$out" "$OWNER" "$FIX"
out=$(inst "$R$TK" --force); rc=$?
check "--force does not override it" [ $rc -eq 20 ]
check "nothing changed" [ "$(snapR)" = "$before" ]
case $KIND in dpkg|rpm|rpm_sqlite) check "$KIND's own verify is clean" verify ;; esac  # pacman and the filelist: text fixtures
if [ "$KIND" = dpkg ]; then
  hold; held=$(snapR)
  out=$(inst "$R$TK"); check "held after dpkg --set-selections: the refusal says so" grep -qF "$OWNER (held)" <<< "$out"
  out=$(CUDNNCTL_PACKAGE_ROOT=$R "$C" uninstall --cuda-path "$R$TK" 2>&1); rc=$?
  check "uninstall there: nothing of cudnnctl's to remove, and nothing removed" bash -c '[ $0 -ne 0 ] && [ "$1" = "$2" ]' $rc "$(snapR)" "$held"
  mk_tk "$R/usr"
  out=$(inst "$R/usr"); rc=$?
  check "a toolkit in /usr (Debian's nvidia-cuda-toolkit) is refused: exit 20, the alternative named" \
    bash -c '[ $0 -eq 20 ] && grep -q "install.system-toolkit\|system folder\|operating system" <<< "$1" && grep -q "/usr/local/cuda-X.Y" <<< "$1"' $rc "$out"
fi
OWN=/opt/cuda-own; mk_tk "$R$OWN"
out=$(inst "$R$OWN"); rc=$?
check "a toolkit of its own still installs (exit 0)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || echo "$out"
if [ "$KIND" = dpkg ]; then  # the package's copy on the loader path, before the toolkit: install warns which copy programs load
  OWN2=/opt/cuda-own2; mk_tk "$R$OWN2"
  out=$(LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu CUDNNCTL_PACKAGE_ROOT=$R "$C" install $N.tar.xz --cuda-path "$R$OWN2" --sha256 $H 2>&1); rc=$?
  check "an install shadowed by the dpkg package's copy says which copy programs load, with the owner and its fix" \
    bash -c '[ $0 -eq 0 ] && grep -E "^  !  .*not on the search path" <<< "$1" | grep -F "load cuDNN 9.19.0 from $2/usr/lib/x86_64-linux-gnu ($3" | grep -qF "or remove that copy: sudo apt remove libcudnn9-cuda-13"' \
    $rc "$out" "$R" "$OWNER" || echo "$out"
fi
if [ "$KIND" = pacman ]; then  # a package manager that took over a file cudnnctl installed: uninstall refuses
  cp "$L/files" files.orig; printf '%s/lib64/libcudnn_ops.so.9\n' ${OWN#/} >> "$L/files"
  mid=$(snapR); out=$(CUDNNCTL_PACKAGE_ROOT=$R "$C" uninstall --cuda-path "$R$OWN" 2>&1); rc=$?
  check "uninstall of a file pacman now owns: exit 20, nothing changed" bash -c '[ $0 -eq 20 ] && [ "$1" = "$2" ]' $rc "$mid" "$(snapR)"
  cp files.orig "$L/files"
  CUDNNCTL_PACKAGE_ROOT=$R "$C" uninstall --cuda-path "$R$OWN" > /dev/null 2>&1; rc=$?
  check "without that claim it uninstalls (exit 0)" [ $rc -eq 0 ]
fi
finish
