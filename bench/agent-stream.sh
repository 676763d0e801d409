#!/usr/bin/env bash
# What a JMeter agent's sample stream costs over a real link, and the rate the agent keeps, with JMeter's own StrippedAsynch
# (one serialized sample or a few a send) against the lab's SecondBatches (a compact batch a second): docs/scale-out.md,
# "A sample stream that scales". The load host is a network namespace joined by a veth pair (needs root and iproute2); the
# agent runs there with ./lab agent, mvc on this host's end of the link, 8 users for 5 s, sequential, on plaintext and on the
# 20 ms gateway. Bytes from the agent's host are the link's counter: the requests to the target and the samples together.
# Usage: bench/agent-stream.sh [ROUNDS]   (default 1: each mode once per scenario, alternated)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-1}"
[[ "$ROUNDS" =~ ^[0-9]+$ ]] || { echo "agent-stream: ROUNDS must be a whole number, got '$ROUNDS'" >&2; exit 2; }
[[ "$(id -u)" == 0 ]] || { echo "agent-stream: needs root (a network namespace)" >&2; exit 2; }
"$ROOT/lab" --help >/dev/null   # builds when the sources changed
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
LAB=("$JAVA" -Dloomflux.home="$ROOT" -jar "$ROOT/lab-cli/target/loomflux-lab.jar")
NS="loomflux-bench-$$"
LINK="lfb$(( $$ % 100000 ))"
OUT=10.232.0.1
IN=10.232.0.2
WORK="$(mktemp -d)"
AGENT=""
cleanup() {
  [[ -n "$AGENT" ]] && kill "$AGENT" 2>/dev/null && wait "$AGENT" 2>/dev/null || true
  ip netns del "$NS" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
ip netns add "$NS"
ip link add "${LINK}h" type veth peer name "${LINK}n"
ip link set "${LINK}n" netns "$NS"
ip addr add "$OUT/30" dev "${LINK}h"
ip link set "${LINK}h" up
ip netns exec "$NS" ip addr add "$IN/30" dev "${LINK}n"
ip netns exec "$NS" ip link set "${LINK}n" up
ip netns exec "$NS" ip link set lo up
ip netns exec "$NS" "${LAB[@]}" agent --bind "$IN:1099" --keystore "$WORK/agents.p12" >"$WORK/agent.txt" 2>&1 &
AGENT=$!
for _ in $(seq 120); do grep -q "agent: listening" "$WORK/agent.txt" && break; sleep 1; done
grep -q "agent: listening" "$WORK/agent.txt" || { cat "$WORK/agent.txt" >&2; exit 1; }
rx() { cat "/sys/class/net/${LINK}h/statistics/rx_bytes"; }
printf '%-34s %-10s %9s %10s %12s %12s\n' mode scenario samples "samples/s" "bytes from" "bytes/sample"
for _ in $(seq "$ROUNDS"); do
  for scenario in plaintext gateway; do
    for mode in StrippedAsynch dev.loomflux.jmeter.SecondBatches; do
      extra=()
      [[ "$scenario" == gateway ]] && extra=(--delay 20)
      before="$(rx)"
      "$JAVA" -Dloomflux.home="$ROOT" -Dloomflux.jmeter.mode="$mode" -jar "$ROOT/lab-cli/target/loomflux-lab.jar" run --aot-cache --driver jmeter --agents "$IN:1099" --agent-keystore "$WORK/agents.p12" \
        --host "$OUT" --design sequential --targets mvc --scenario "$scenario" "${extra[@]}" --users 8 --duration 5s --warmup 0s \
        --cooldown 0s --no-pin --name agent-stream >"$WORK/run.txt" 2>&1 || { tail -20 "$WORK/run.txt" >&2; exit 1; }
      bytes=$(( $(rx) - before ))
      results="$(sed -n 's/^results: //p' "$WORK/run.txt")"
      read -r samples rps < <(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r['requests'], r['throughput_rps'])" "$results")
      printf '%-34s %-10s %9s %10s %12s %12s\n' "$mode" "$scenario" "$samples" "$rps" "$bytes" "$(( bytes / (samples > 0 ? samples : 1) ))"
    done
  done
done
