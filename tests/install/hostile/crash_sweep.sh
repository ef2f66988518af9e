#!/usr/bin/env bash
# Crash sweep (issue 29, N1): every file-system change that install, uninstall, repair and an upgrade
# make is a kill point. A clean run counts them (CUDNNCTL_FAULT_LOG); then, for each point k and for
# SIGKILL and SIGINT, the command is stopped right before its k-th change (CUDNNCTL_FAULT_AT_CHANGE) and
# the next command runs (after SIGINT, when the run rolled back by itself and left the toolkit exactly
# as before, there is nothing more to check): run again, the toolkit must end exactly as the clean run left it, and
# uninstall must then give back exactly what was there before; or (odd points, where the command had
# no earlier receipt) uninstall right away must give back exactly what was there before.
# A SIGINT that ends the process (before the moves, where no handler is installed) leaves what a SIGKILL
# at the same change leaves: that tree is checked by the KILL sweep, so the INT sweep checks the runs
# that stopped themselves (rolled back, exit 130) or finished.
# Usage: crash_sweep.sh CUDNNCTL [SCENARIO...]   (scenarios: fresh same_by_hand other_release uninstall repair upgrade;
#        CUDNNCTL_SWEEP_SIGNALS="KILL INT" by default)
# A kill does not lose what was written (only a power loss would), so the flushes need no disk: the
# sweep runs in memory when it can (each move is announced with an fsync; a thousand of them on a busy
# disk take minutes).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
. "$(dirname "$0")/common.sh" "$1"; shift
scenarios=${*:-fresh same_by_hand other_release uninstall repair upgrade}

N2=cudnn-linux-x86_64-9.20.0.10_cuda13-archive
mk_cudnn $N2 9.20.0; echo LICENSE > $N2/LICENSE; tar -cJf $N2.tar.xz $N2; H2=$(sha256sum $N2.tar.xz | cut -d' ' -f1)
install_cmd() { "$C" install "$W/$N.tar.xz" --cuda-path "$W/tk" --sha256 "$H" --no-path; }
upgrade_cmd() { "$C" install "$W/$N2.tar.xz" --cuda-path "$W/tk" --sha256 "$H2" --no-path; }
uninstall_cmd() { "$C" uninstall --cuda-path "$W/tk"; }
quiet() { "$@" > /dev/null 2>&1; }

# set-ups: each makes "$W/start" (the toolkit before the command) and names the command
setup() {
  rm -rf start; mk_tk start
  case $1 in
  fresh) cmd=install_cmd ;;
  same_by_hand) cp -a $N/include/. start/include/; cp -a $N/lib/. start/lib64/; cmd=install_cmd ;;
  other_release) EXTRA="_ext _engines_tensor_ir" mk_cudnn other 9.24.0; cp -a other/include/. start/include/; cp -a other/lib/. start/lib64/
                 rm -rf other; cmd=install_cmd ;;
  uninstall) cp -a $N/include/cudnn.h start/include/; "$C" install $N.tar.xz --cuda-path start --sha256 $H --no-path > /dev/null || return 1
             cmd=uninstall_cmd ;;
  repair) "$C" install $N.tar.xz --cuda-path start --sha256 $H --no-path > /dev/null || return 1
          echo damaged > start/lib64/libcudnn_ops.so.9.19.0; echo damaged > start/include/cudnn.h; cmd=install_cmd ;;
  upgrade) echo "an older header" > start/include/cudnn_version.h
           "$C" install $N.tar.xz --cuda-path start --sha256 $H --no-path > /dev/null || return 1; cmd=upgrade_cmd ;;
  esac
}
reset_tk() { rm -rf tk; cp -a start tk; }

for sc in $scenarios; do
  setup "$sc" || { check "$sc: set-up" false; continue; }
  reset_tk; before=$(snap tk)
  rm -f changes.log; CUDNNCTL_FAULT_LOG=$W/changes.log quiet $cmd || check "$sc: clean run" false
  done_state=$(snap tk); n=$(wc -l < changes.log)
  quiet uninstall_cmd; original=$(snap tk)   # what uninstall gives back after the command finished
  echo "$sc: $n file-system changes"
  [ "$n" -gt 0 ] || { check "$sc: the binary counts its file-system changes (CUDNNCTL_FAULT_LOG)" false; continue; }
  bad=0 ended=0 rolled=0 finished=0
  for sig in ${CUDNNCTL_SWEEP_SIGNALS:-KILL INT}; do
    for k in $(seq 1 "$n"); do
      reset_tk
      CUDNNCTL_FAULT_AT_CHANGE=$k CUDNNCTL_FAULT_SIGNAL=$sig $cmd > /dev/null 2> err.txt; rc=$?
      if [ $sig = INT ]; then
        # ended by the signal itself: the same tree as SIGKILL at this change (the KILL sweep's case)
        [ $rc -eq 130 ] && ! grep -q "was interrupted" err.txt && { ended=$((ended + 1)); continue; }
        # Ctrl-C during the moves: the run rolled back by itself, nothing is left to recover
        [ $rc -eq 130 ] && { rolled=$((rolled + 1)); [ "$(snap tk)" = "$before" ] || { echo "FAIL: $sc INT at change $k: exit 130 but not rolled back"; bad=$((bad + 1)); }; continue; }
        finished=$((finished + 1))
      fi
      if [ $((k % 2)) -eq 1 ] && [ "$sc" = fresh -o "$sc" = same_by_hand -o "$sc" = other_release ]; then
        quiet uninstall_cmd
        [ "$(snap tk)" = "$before" ] || { echo "FAIL: $sc $sig at change $k ($(sed -n "${k}p" changes.log)): uninstall did not give back the toolkit"; diff <(echo "$before") <(snap tk) | head -8; bad=$((bad + 1)); }
        continue
      fi
      quiet $cmd
      [ "$(snap tk)" = "$done_state" ] || { echo "FAIL: $sc $sig at change $k ($(sed -n "${k}p" changes.log)): running again did not end as a clean run"; diff <(echo "$done_state") <(snap tk) | head -8; bad=$((bad + 1)); }
      quiet uninstall_cmd
      [ "$(snap tk)" = "$original" ] || { echo "FAIL: $sc $sig at change $k: uninstall then did not give back the toolkit"; diff <(echo "$original") <(snap tk) | head -8; bad=$((bad + 1)); }
    done
  done
  case " ${CUDNNCTL_SWEEP_SIGNALS:-KILL INT} " in *" INT "*)
    echo "$sc INT: $rolled runs rolled back by themselves (exit 130), $finished finished first, $ended ended by the signal (as KILL)";; esac
  [ "$rolled" -gt 0 ] || ! grep -q INT <<< "${CUDNNCTL_SWEEP_SIGNALS:-KILL INT}" || check "$sc: some Ctrl-C points fall in the moves" false
  check "$sc: all $n kill points x {${CUDNNCTL_SWEEP_SIGNALS:-KILL INT}} end exactly before or exactly done" [ "$bad" -eq 0 ]
done
finish
