#!/usr/bin/env bash
# Benchmarks the downstream stub with wrk: the stub pinned to one CPU, wrk to another, so neither
# steals cycles from the other. Builds nothing and installs nothing.
# Usage: downstream/bench.sh            (env: DURATION=15s WARMUP=10s STUB_CPU=0 WRK_CPU=1)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-10s}
STUB_CPU=${STUB_CPU:-0}
WRK_CPU=${WRK_CPU:-1}
JAR=downstream/target/loomflux-downstream.jar

die() { echo "bench.sh: $*" >&2; exit 1; }

[[ -f $JAR ]] || die "$JAR is missing; build it first: ./mvnw -q -B -pl downstream package"
command -v wrk >/dev/null || die "wrk is not installed (Debian/Ubuntu: apt-get install wrk)"
command -v taskset >/dev/null || die "taskset is not installed (Debian/Ubuntu: apt-get install util-linux)"
(( $(nproc) >= 2 )) || die "needs 2 CPUs (stub and wrk pinned apart), found $(nproc)"

# The release file names the version without starting a JVM; JAVA_HOME wins, then the newest in /usr/lib/jvm.
major() { [[ -r $1/release ]] && sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" || true; }
JDK=
for home in ${JAVA_HOME:-} $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sed 's:/$::'); do
  v=$(major "$home")
  [[ -x $home/bin/java && -n $v ]] && (( v >= 21 )) || continue
  if [[ -n ${JAVA_HOME:-} && $home == "$JAVA_HOME" ]]; then JDK=$home; break; fi
  if [[ -z $JDK ]] || (( v > $(major "$JDK") )); then JDK=$home; fi
done
[[ -n $JDK ]] || die "no JDK >= 21 in JAVA_HOME or /usr/lib/jvm"

log=$(mktemp)
taskset -c "$STUB_CPU" "$JDK/bin/java" -jar "$JAR" --port 0 >"$log" 2>&1 &
stub=$!
trap 'kill $stub 2>/dev/null; wait $stub 2>/dev/null || true; rm -f "$log"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in $(seq 300); do
  grep -q '^loomflux-downstream listening on' "$log" && break
  kill -0 $stub 2>/dev/null || die "the stub exited: $(cat "$log")"
  sleep 0.1
done
port=$(sed -n 's/^loomflux-downstream listening on .*:\([0-9]*\)$/\1/p' "$log")
[[ -n $port ]] || die "the stub did not report its port within 30 s"
url=http://127.0.0.1:$port

# CPU accounting, so a reader can tell whether a figure is trustworthy: the stub's CPU time against
# wall time, wrk's likewise (a saturated wrk caps the throughput), and how busy each core was in all;
# a core much busier than its pinned process means something else ran there and disturbed the run.
sample() {  # stub CPU seconds, wall clock, then busy and total ticks of the stub's core and of wrk's
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' /proc/$stub/stat
  date +%s.%N
  for c in "$STUB_CPU" "$WRK_CPU"; do
    awk -v c="cpu$c" '$1 == c {print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
  done
}

run() {  # connections ms duration
  local before after wrk_cpu
  before=$(sample)
  wrk_cpu=$( { TIMEFORMAT='%U %S'; time taskset -c "$WRK_CPU" wrk -t1 -c"$1" -d"$3" --latency "$url/delay?ms=$2" >&3; } 2>&1 )
  after=$(sample)
  echo $before $after $wrk_cpu | awk '{
    wall = $8 - $2
    printf "stub: %.0f%% of cpu'"$STUB_CPU"' (busy %.0f%% in all); wrk: %.0f%% of cpu'"$WRK_CPU"' (busy %.0f%% in all)\n",
      100 * ($7 - $1) / wall, 100 * ($9 - $3) / ($10 - $4), 100 * ($13 + $14) / wall, 100 * ($11 - $5) / ($12 - $6)}'
}

exec 3>&1  # wrk's report goes here while its CPU time is captured
echo "JDK: $JDK ($("$JDK/bin/java" -version 2>&1 | head -1))"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), kernel $(uname -r)"
echo "stub on cpu$STUB_CPU, wrk on cpu$WRK_CPU, $url"
# Both code paths get compiled before anything is measured: warmed at 0 ms only, the timer path is
# still cold in (b) and its JIT compilation shows as a p99 of ~26-30 ms instead of ~21.5 ms.
echo; echo "== warmup: $WARMUP at ms=0 (100 connections), then $WARMUP at ms=20 (1000 connections)"
run 100 0 "$WARMUP" >/dev/null 3>&1
run 1000 20 "$WARMUP" >/dev/null 3>&1
echo; echo "== (a) throughput: 100 connections, ms=0";  run 100 0 "$DURATION"
echo; echo "== (b) latency: 100 connections, ms=20";    run 100 20 "$DURATION"
echo; echo "== (c) 1000 connections, ms=20";            run 1000 20 "$DURATION"
