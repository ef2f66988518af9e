#!/usr/bin/env bash
# doctor --slurm-health as the HealthCheckProgram of a real one-node Slurm cluster (Debian's slurm-wlm: slurmctld,
# slurmd, and munge) on 127.0.0.1, every daemon on private files in a temporary folder (slurm.conf through
# SLURM_CONF, state, spool, logs, pid files, a munge key and socket of its own; the system's /etc is never read).
# A toolkit whose libcudnn.so.9 is truncated drains the node with a "cudnnctl:" reason (sinfo -R); the library
# put back, the next check resumes it; a node an administrator drained for another reason stays drained.
#   slurm_test.sh CUDNNCTL
set -euo pipefail
skip() {  # CI sets CUDNNCTL_REQUIRE_FLEET=1 (.ci/run): there a missing engine fails the test
  [[ -z ${CUDNNCTL_REQUIRE_FLEET:-} ]] || { echo "FAIL (CUDNNCTL_REQUIRE_FLEET is set): $*"; exit 1; }
  echo "SKIP: $*"; exit 0
}
CUDNNCTL=$(realpath "$1")
for b in munged mungekey slurmctld slurmd scontrol sinfo; do
  command -v "$b" > /dev/null || skip "$b is not installed (Debian: apt-get install slurm-wlm munge)"
done
[[ $(id -u) == 0 ]] || skip "slurmd runs the HealthCheckProgram as root and must itself run as root"
CUDA=${CUDNNCTL_SLURM_CUDA:-/usr/local/cuda}
[[ -f $CUDA/lib64/libcudnn.so.9 && -f $CUDA/include/cudnn_version.h ]] || skip "needs a toolkit with cuDNN 9 to copy ($CUDA)"

T=$(mktemp -d /tmp/cudnnctl-slurm.XXXXXX)
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2> /dev/null || true; done
  for p in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$p" 2> /dev/null || true
  done
  rm -rf "$T"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$T"/log/*.log "$T"/health.log; do [[ -f $f ]] && { echo "--- $f"; tail -25 "$f"; }; done
  exit 1
}
mkdir -p "$T/log" "$T/state" "$T/spool" "$T/munge"
chmod 700 "$T/munge"

# the toolkit: a copy of this machine's cuDNN (tests/fleet/toolkit_copy.sh)
source "$(dirname "$0")/toolkit_copy.sh"
TK=$T/cuda
make_toolkit_copy "$CUDA" "$TK"
LD_LIBRARY_PATH=$TK/lib64 "$CUDNNCTL" doctor --no-gpu --cuda-path "$TK" > "$T/doctor.txt" || [[ $? == 11 ]] ||
  { cat "$T/doctor.txt"; fail "the doctor does not find the toolkit copy healthy"; }

# munge with its own key and socket
mungekey -c -k "$T/munge/munge.key"
munged -F -f --socket="$T/munge/socket" --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/seed" > /dev/null 2>&1 &
PIDS+=($!)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
NODE=$(hostname -s)
CTLD_PORT=$(free_port) SLURMD_PORT=$(free_port)
# the HealthCheckProgram: cudnnctl on the toolkit (first on the loader path, as on the nodes' jobs), node name from
# `hostname -s`, scontrol on this cluster
cat > "$T/health.sh" <<SH
#!/bin/sh
export SLURM_CONF=$T/slurm.conf PATH=/usr/sbin:/usr/bin:/sbin:/bin LD_LIBRARY_PATH=$TK/lib64
echo "--- \$(date +%T)" >> $T/health.log
exec "$CUDNNCTL" doctor --slurm-health --cuda-path "$TK" >> $T/health.log 2>&1
SH
chmod 755 "$T/health.sh"
cat > "$T/slurm.conf" <<CONF
ClusterName=cudnnctltest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
HealthCheckProgram=$T/health.sh
HealthCheckInterval=3
HealthCheckNodeState=ANY
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
for _ in $(seq 50); do [[ -S $T/munge/socket ]] && break; sleep 0.1; done
[[ -S $T/munge/socket ]] || skip "munged did not start: $(tail -3 "$T/log/munged.log" 2> /dev/null)"
slurmctld -D -c > "$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D > "$T/log/slurmd.out" 2>&1 &
PIDS+=($!)

node_state() { sinfo -h -N -n "$NODE" -o '%T' 2> /dev/null | head -1; }
node_reason() { scontrol show node "$NODE" 2> /dev/null | sed -n 's/^ *Reason=\(.*\) \[.*\]$/\1/p'; }
# wait up to $1 s for the node's state to match $2 (a regex)
wait_state() {
  local i
  for i in $(seq "$(($1 * 2))"); do [[ $(node_state) =~ $2 ]] && return 0; sleep 0.5; done
  return 1
}
wait_state 30 '^(idle|mixed|allocated)' || {
  cat "$T/log/slurmctld.out" "$T/log/slurmd.out" 2> /dev/null | tail -5
  skip "the one-node cluster did not come up within 30 s (node state '$(node_state)'; logs above)"
}
echo "cluster up: node $NODE $(node_state), HealthCheckInterval=3"

# a damaged library: the node drains with cudnnctl's reason
damage_toolkit_copy "$TK"
wait_state 30 '^drain' || fail "a truncated libcudnn.so.9 did not drain the node within 30 s (state $(node_state))"
reason=$(node_reason)
echo "drained: $reason"
[[ $reason == cudnnctl:\ * ]] || fail "the drain reason '$reason' is not cudnnctl's"
sinfo -h -R -o '%E' | grep -q '^cudnnctl: ' || fail "sinfo -R does not list the cudnnctl reason"

# put the library back: the next check resumes it
repair_toolkit_copy "$TK"
wait_state 30 '^idle$' || fail "the repaired toolkit did not resume the node within 30 s (state $(node_state), reason '$(node_reason)')"
echo "resumed: $(node_state)"

# an administrator's drain stays, through healthy checks and failing ones
scontrol update NodeName="$NODE" State=DRAIN Reason="disk replacement by admin"
runs() { grep -c '^--- ' "$T/health.log"; }
wait_runs() { local want=$(($(runs) + $1)) i; for i in $(seq 40); do (($(runs) >= want)) && return 0; sleep 0.5; done; return 1; }
wait_runs 2 || fail "the health check did not run twice within 20 s"
[[ $(node_state) == drain* && $(node_reason) == "disk replacement by admin" ]] ||
  fail "a healthy check changed an administrator's drain (state $(node_state), reason '$(node_reason)')"
damage_toolkit_copy "$TK"
wait_runs 2 || fail "the health check did not run twice within 20 s"
[[ $(node_state) == drain* && $(node_reason) == "disk replacement by admin" ]] ||
  fail "a failing check replaced an administrator's reason (state $(node_state), reason '$(node_reason)')"
grep -q "left as it is" "$T/health.log" || fail "the health log does not say the admin's drain was left"
echo "an administrator's drain stayed: $(node_reason)"
echo "slurm: 4 passed, 0 failed"
