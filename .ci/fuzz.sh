#!/usr/bin/env bash
# Runs every Fuzz target of the module for a bounded time each.  usage: .ci/fuzz.sh [fuzztime]
# The committed seed corpora (testdata/fuzz/FuzzX) also run as plain tests in `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-10s}
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "fuzz $pkg $target ($time)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg" >/dev/null
  done
done
