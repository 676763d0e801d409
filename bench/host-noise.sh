#!/usr/bin/env bash
# How much the machine's own speed moves, nothing of ours running (docs/reproducibility.md).
# Usage: bench/host-noise.sh [SECONDS] [CPU]   (default 120 s on CPU 0, the lab's target CPU)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TO_RUN="${1:-120}"
CPU="${2:-0}"
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || { echo "host-noise: SECONDS must be a whole number, got '$SECONDS_TO_RUN'" >&2; exit 2; }
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
PIN=()
if command -v taskset >/dev/null; then
  PIN=(taskset -c "$CPU")
fi
exec "${PIN[@]}" "$JAVA" -Xmx256m "$ROOT/bench/HostNoise.java" "$SECONDS_TO_RUN"
