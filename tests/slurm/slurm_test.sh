#!/usr/bin/env bash
# A sched fuzz campaign on a real Slurm cluster: starts munged, slurmctld and slurmd on this
# machine (a one-node cluster in a private directory, ports chosen free), runs a 4-shard campaign
# through scripts/slurm-fuzz.sh, runs the same campaign in one process, and checks that the
# merged summary equals it (same cases, kinds, defect classes, oracle runs and flags, findings;
# times aside). Then a campaign with a failing shard: the merge reports it missing (exit 3).
# Stops every daemon it started. Exit 77 (skipped) without slurm-wlm and munge.
# Usage: slurm_test.sh SCHED SOURCE_DIR
set -euo pipefail
sched="$1" src="$2"
for t in munged slurmctld slurmd sbatch sinfo; do
  command -v "$t" >/dev/null 2>&1 || { echo "skipped: $t not found (Debian: slurm-wlm munge)"; exit 77; }
done
W="$(mktemp -d /tmp/sched-slurm-XXXXXX)"
chmod 700 "$W"
pids=()
cleanup() {
  set +e
  SLURM_CONF="$W/slurm.conf" scancel --quiet --user="$(id -un)" 2>/dev/null
  for f in slurmd slurmctld munged; do [ -f "$W/$f.pid" ] && kill "$(cat "$W/$f.pid")" 2>/dev/null; done
  sleep 1
  for f in slurmd slurmctld munged; do [ -f "$W/$f.pid" ] && kill -9 "$(cat "$W/$f.pid")" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for l in "$W"/*.log; do echo "--- $l"; tail -n 20 "$l"; done; exit 1; }

# munge: a fresh key, a private socket
head -c 1024 /dev/urandom > "$W/munge.key"; chmod 600 "$W/munge.key"
munged --force --key-file="$W/munge.key" --socket="$W/munge.sock" --pid-file="$W/munged.pid" \
       --log-file="$W/munged.log" --seed-file="$W/munged.seed" || fail "munged did not start"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host="$(hostname -s)" user="$(id -un)"
mkdir -p "$W/state" "$W/spool"
cat > "$W/slurm.conf" <<CONF
ClusterName=schedtest
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$W/munge.sock
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$W/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$host" || fail "slurmd did not start"
for i in $(seq 1 30); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
  sleep 1
  [ "$i" = 30 ] && fail "the node did not become idle"
done
echo "cluster up: $(sinfo -h -o '%P %D %T %N')"

opts=(--seed 11 --cases 40 --oracles model,reference,fast,explore --jobs 1)
"$src/scripts/slurm-fuzz.sh" -n 4 -o "$W/camp" --sched "$sched" --wait -- "${opts[@]}" || fail "the Slurm campaign's merge exited $?"
"$sched" fuzz "${opts[@]}" --quiet --json --out "$W/single" > "$W/single.json" || [ $? = 1 ] || fail "the one-process campaign"
python3 - "$W/camp/summary.json" "$W/single.json" <<'PY' || fail "the merged summary differs from the one-process campaign"
import json, sys
merged, single = (json.load(open(f)) for f in sys.argv[1:3])
def strip(x):  # times and throughput differ between runs
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "second" not in k}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
key = lambda f: json.dumps(strip(f), sort_keys=True)
checks = {
    "cases": (merged["cases"], single["cases"]),
    "inconclusive": (merged["inconclusive"], single["inconclusive"]),
    "kinds": (strip(merged["kinds"]), strip(single["kinds"])),
    "classes": (strip(merged["classes"]), strip(single["classes"])),
    "oracles": (strip(merged["oracles"]), strip(single["oracles"])),
    "findings": (sorted(map(key, merged["findings"])), sorted(map(key, single["findings"]))),
    "missing_shards": (merged["missing_shards"], []),
}
bad = [k for k, (a, b) in checks.items() if a != b]
for k in bad:
    print(f"{k}: merged {checks[k][0]} != one process {checks[k][1]}")
print(f"4 shards merged: {merged['cases']} cases, {len(merged['findings'])} finding(s), shard {merged['shard']}; "
      f"equal to the one-process campaign: {not bad}")
sys.exit(1 if bad else 0)
PY

# a shard that fails (a --sched that exits 2 for shard 2 only): the merge says it is missing
cat > "$W/flaky-sched" <<SH
#!/usr/bin/env bash
case "\$*" in *"--shard 2/4"*) echo "shard 2 failed on purpose" >&2; exit 2 ;; esac
exec "$sched" "\$@"
SH
chmod +x "$W/flaky-sched"
set +e
"$src/scripts/slurm-fuzz.sh" -n 4 -o "$W/camp2" --sched "$W/flaky-sched" --wait -- "${opts[@]}"
rc=$?
set -e
[ "$rc" = 3 ] || fail "a campaign with a failed shard: merge exit $rc, expected 3"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["missing_shards"] == ["2/4"], s["missing_shards"]; print("missing shards reported:", s["missing_shards"])' "$W/camp2/summary.json" \
  || fail "missing_shards"
grep -q "1 shard(s) missing (2/4)" "$W/camp2/logs/merge.err" || fail "the merge job's message"
echo "slurm: ok"
