#!/usr/bin/env bash
# An independent client's figure for a bring-your-own jar, warmed as the paired design warms it: the jar started with the
# lab's JVM flags on the target CPU, a compile stage (2 connections, target and driver CPUs), a stage at the measured
# connections (target CPU only), then wrk measures ROUNDS x 10 s from the driver CPU. docs/steady-state.md, "A real app
# against wrk", holds what it gave.
#   bench/wrk-after-warmup.sh JAR PATH [USERS] [COMPILE_S] [LOAD_S] [ROUNDS]
set -euo pipefail
JAR=$1 URLPATH=$2 USERS=${3:-20} COMPILE_S=${4:-45} LOAD_S=${5:-50} ROUNDS=${6:-3}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java} PORT=${PORT:-19966} TARGET_CPU=${TARGET_CPU:-0} DRIVER_CPU=${DRIVER_CPU:-1}
command -v wrk >/dev/null || { echo "wrk-after-warmup: wrk is missing (apt-get install wrk)" >&2; exit 2; }
LOG=$(mktemp)
JAVA_TOOL_OPTIONS="-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -XX:StartFlightRecording=name=loomflux,settings=default -XX:ActiveProcessorCount=1" \
  taskset -c "$TARGET_CPU" "$JAVA" -jar "$JAR" --server.address=127.0.0.1 --server.port="$PORT" >"$LOG" 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; rm -f "$LOG"' EXIT
URL="http://127.0.0.1:$PORT$URLPATH"
for _ in $(seq 120); do curl -sf -o /dev/null "$URL" && break; sleep 1; done
run() { taskset -c "$DRIVER_CPU" wrk -t1 -c"$1" -d"$2"s --latency -H 'cache-control: no-store' "$URL"; }
taskset -a -cp "$TARGET_CPU,$DRIVER_CPU" "$APP" >/dev/null
run 2 "$COMPILE_S" >/dev/null
taskset -a -cp "$TARGET_CPU" "$APP" >/dev/null
run "$USERS" "$LOAD_S" >/dev/null
for r in $(seq "$ROUNDS"); do
  run "$USERS" 10 | awk -v r="$r" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} END {print "round " r ": " rps " requests/s, p50 " p50}'
done
