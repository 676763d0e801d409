#!/usr/bin/env bash
# Runs one experiment RUNS times (default 3), back to back, and reports how far the runs agree
# (docs/reproducibility.md). Usage: [RUNS=N] bench/reproduce.sh [EXPERIMENT] [./lab run flags...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

case "${1:-}" in
  -h|--help)
    echo "usage: [RUNS=N] bench/reproduce.sh [EXPERIMENT] [./lab run flags...]"
    echo "Runs ./lab run with these arguments RUNS times (default 3; --name repro-1, repro-2, ...), then"
    echo "./lab compare RUN1 RUN2 ... --reproducibility. No arguments: the default ./lab run."
    exit 0
    ;;
esac

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Prints the run's console live and sets RUN_DIR from its last line, "results: <dir>/results.json".
measure() {
  local name="$1"
  shift
  local code
  set +e
  ./lab run "$@" --name "$name" 2>&1 | tee "$TMP/$name.out"
  code=${PIPESTATUS[0]}
  set -e
  local file
  file="$(grep '^results: ' "$TMP/$name.out" | tail -n 1 | sed 's/^results: //' || true)"
  if [[ $code -ne 0 || -z "$file" ]]; then
    # A half-finished pair would compare a run with nothing: stop here.
    echo "reproduce: ./lab run --name $name ended with exit $code${file:+ ($file)}; not comparing" >&2
    exit "$(( code == 0 ? 1 : code ))"
  fi
  RUN_DIR="$(dirname "$file")"
}

RUNS="${RUNS:-3}"
DIRS=()
for i in $(seq 1 "$RUNS"); do
  measure "repro-$i" "$@"
  DIRS+=("$RUN_DIR")
done

echo
for i in "${!DIRS[@]}"; do
  echo "run $((i + 1)): ${DIRS[$i]}"
done
echo
exec ./lab compare "${DIRS[@]}" --reproducibility --markdown "${DIRS[-1]}/reproducibility.md"
