#!/usr/bin/env bash
# Replays stored paired runs of fixed rounds through the sequential stopping rule, look by look (docs/statistics.md,
# "Stopping when the answer is known"): per run and cap, where the rounds would have stopped and why, and each comparison's
# outcome over every round at 5% against the sequential one and the round it was reached from; then a summary per cap.
# Usage: bench/replay-stopping.sh [--caps 45,30,25,20,15] [--quiet] RESULTS_JSON_OR_DIR...
#   e.g. bench/replay-stopping.sh --quiet results/20261128-002703-json results/20261128-001615-json
#   A directory of run directories (results/) replays every run in it; a run with fewer rounds than a cap skips that cap.
# Runs the test class dev.loomflux.lab.verdict.ReplayStopping on lab-cli/target/classes and test-classes, with the
# dependencies of lab-cli/target/lib (./mvnw package) or, without it, a classpath Maven writes once to
# lab-cli/target/replay.classpath. Builds what is missing (./mvnw -o -pl lab-cli -am test-compile).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T="$ROOT/lab-cli/target"
if [[ ! -f "$T/test-classes/dev/loomflux/lab/verdict/ReplayStopping.class" || ( ! -d "$T/lib" && ! -f "$T/replay.classpath" ) ]]; then
  echo "replay-stopping: building the lab's classes and its classpath ..." >&2
  "$ROOT/mvnw" -q -B -o -f "$ROOT/pom.xml" -pl lab-cli -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$T/replay.classpath" >&2
fi
if [[ -d "$T/lib" ]]; then
  DEPS="$T/lib/*"
else
  DEPS="$(cat "$T/replay.classpath")"
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$JAVA" -cp "$T/classes:$T/test-classes:$DEPS" dev.loomflux.lab.verdict.ReplayStopping "$@"
