#!/usr/bin/env bash
# hostile.md N1: a toolkit that already holds the archive's content (the same release copied in by
# hand); install is killed (kill -9, Ctrl-C) while it works. The next run's recovery must leave exactly
# what was there, never delete the toolkit's own files, and say "as it was" only when it is.
. "$(dirname "$0")/common.sh" "$1"
mk_tk tk; cp -a $N/include/. tk/include/; cp -a $N/lib/. tk/lib64/      # the same 9.19 copied in by hand
before=$(snap tk)

CUDNNCTL_FAULT_KILL_AT=journaled "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null 2>&1
check "install killed right after its journal (exit 137)" [ $? -eq 137 ]
out=$("$C" uninstall --cuda-path tk 2>&1); echo "$out"
check "uninstall after the kill: the toolkit is exactly as before (no cuDNN file lost)" [ "$(snap tk)" = "$before" ]
check "the hand-copied libraries are still there" [ -f tk/lib64/libcudnn.so.9.19.0 -a -f tk/include/cudnn.h ]

# kill -9 after each of the first moves, the old seam (CUDNNCTL_FAULT_KILL_AFTER_MOVES)
for k in 1 2 5 17 31; do
  rm -rf tk; mk_tk tk; cp -a $N/include/. tk/include/; cp -a $N/lib/. tk/lib64/
  CUDNNCTL_FAULT_KILL_AFTER_MOVES=$k "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null 2>&1
  "$C" uninstall --cuda-path tk > /dev/null 2>&1
  check "killed after move $k, then uninstall: exactly as before" [ "$(snap tk)" = "$before" ]
done

# Ctrl-C while it moves files: it stops, rolls back by itself and says so (exit 130), no half state
rm -rf tk; mk_tk tk; cp -a $N/include/. tk/include/; cp -a $N/lib/. tk/lib64/
n=$(CUDNNCTL_FAULT_LOG=$W/count.log "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null 2>&1; wc -l < count.log)
"$C" uninstall --cuda-path tk > /dev/null 2>&1
mid=$(grep -n ' rename ' count.log | sed -n 10p | cut -d: -f1)   # the 10th rename, as strace's inject=rename:when=10
out=$(CUDNNCTL_FAULT_AT_CHANGE=$mid CUDNNCTL_FAULT_SIGNAL=INT "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path 2>&1); rc=$?
echo "$out"
check "Ctrl-C in the apply phase: exit 130" [ $rc -eq 130 ]
check "Ctrl-C in the apply phase: it says it rolled back" grep -q "rolled back" <<< "$out"
check "Ctrl-C in the apply phase: the toolkit is exactly as before, no journal left" [ "$(snap tk)" = "$before" ]
if command -v strace > /dev/null; then
  rm -rf tk; mk_tk tk; cp -a $N/include/. tk/include/; cp -a $N/lib/. tk/lib64/
  strace -f -o /dev/null -e trace=rename -e inject=rename:signal=INT:when=10 \
    "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null 2>&1
  "$C" uninstall --cuda-path tk > /dev/null 2>&1
  check "a real SIGINT at the 10th rename (strace), then uninstall: exactly as before" [ "$(snap tk)" = "$before" ]
fi
echo "($n file-system changes in one install)"
finish
