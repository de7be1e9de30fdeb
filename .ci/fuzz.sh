#!/usr/bin/env bash
# Runs every Fuzz target of the module for a bounded time each.  usage: .ci/fuzz.sh [fuzztime]
# The committed seed corpora (testdata/fuzz/FuzzX) also run as plain tests in `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-10s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "fuzz $pkg $target ($time)"
    ok=0
    for attempt in 1 2; do
      if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" -fuzzminimizetime 5s "$pkg" >"$log" 2>&1; then ok=1; break; fi
      # The fuzzing coordinator can give up on a slow worker on a loaded machine
      # ("context deadline exceeded") without any failing input: that is not a finding,
      # so it gets one more try. A real finding writes its input and fails at once.
      if grep -q 'Failing input written' "$log" || ! grep -q 'context deadline exceeded' "$log"; then break; fi
      echo "  (fuzzing infrastructure timed out without a finding; retrying once)"
    done
    if [ "$ok" != 1 ]; then
      tail -n 30 "$log"
      exit 1
    fi
  done
done
