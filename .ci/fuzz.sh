#!/usr/bin/env bash
# Fuzzes the module's Fuzz targets for a bounded time each, within an overall budget.
# usage: .ci/fuzz.sh [fuzztime] [budget-seconds]
# The committed seed corpora (testdata/fuzz/FuzzX) also run as plain tests in `go test`.
#
# Each target costs its fuzz time plus about ten seconds of building, linking and
# baseline coverage, so all 67 at 6 s took 534 s of a CI run that must end within 25
# minutes. With a budget (CI gives one), targets start in a rotating order, from an
# offset taken from the commit, until the budget is spent: each run fuzzes a different
# part, and consecutive commits cover them all. Without a budget every target runs.
#
# Targets are found in the source (func FuzzX(f *testing.F) in a _test.go file) rather
# than with `go test -list`, which would compile every package's test binary once more.
# Two targets run at a time with one fuzz worker each: the same two workers as one target
# with the default -parallel on 2 cores, but one target's build, link and baseline
# coverage (mostly one core) overlap the other's fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-10s}
budget=${2:-0}
jobs=${WDA_FUZZ_JOBS:-2}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

list=$logs/targets
while read -r dir pkg; do
  grep -hoE '^func Fuzz[A-Za-z0-9_]*\(' "$dir"/*_test.go 2>/dev/null | sed -E "s|^func (Fuzz[A-Za-z0-9_]*)\\(|$pkg \\1|" | sort -u || true
done < <(go list -f '{{.Dir}} {{.ImportPath}}' ./...) >"$list"
# A target the grep misses would silently go unfuzzed: the count must match the source's.
found=$(wc -l <"$list")
want=$(git grep -hE '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' -- '*_test.go' | wc -l)
if [ "$found" != "$want" ]; then
  echo "fuzz.sh found $found targets, the source has $want"; exit 1
fi

if [ "$budget" -gt 0 ]; then
  # Rotate the list to start at an offset the commit decides.
  offset=$(( 16#$(git rev-parse --short=7 HEAD) % found ))
  { tail -n +$((offset + 1)) "$list"; head -n "$offset" "$list"; } >"$list.rot"
  mv "$list.rot" "$list"
fi

fuzz_one() {
  local pkg=$1 target=$2 time=$WDA_FUZZ_TIME
  local log="$WDA_FUZZ_LOGS/${pkg//\//_}.${target}.log"
  if [ "$WDA_FUZZ_DEADLINE" -gt 0 ] && [ "$(date +%s)" -ge "$WDA_FUZZ_DEADLINE" ]; then
    echo "next $pkg $target (budget spent: a later commit starts elsewhere)"; return 0
  fi
  for attempt in 1 2; do
    if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" -fuzzminimizetime 5s -parallel 1 "$pkg" >"$log" 2>&1; then
      echo "ok   $pkg $target ($time)"; return 0
    fi
    # The fuzzing coordinator can give up on a slow worker on a loaded machine
    # ("context deadline exceeded") without any failing input: that is not a finding,
    # so it gets one more try. A real finding writes its input and fails at once.
    if grep -q 'Failing input written' "$log" || ! grep -q 'context deadline exceeded' "$log"; then break; fi
    echo "     $pkg $target: fuzzing infrastructure timed out without a finding; retrying once"
  done
  echo "FAIL $pkg $target"
  tail -n 30 "$log"
  return 1
}
export -f fuzz_one
deadline=0
if [ "$budget" -gt 0 ]; then deadline=$(( $(date +%s) + budget )); fi
export WDA_FUZZ_TIME=$time WDA_FUZZ_LOGS=$logs WDA_FUZZ_DEADLINE=$deadline

# xargs exits non-zero when any target failed; every failing target prints its log.
if ! xargs -P "$jobs" -L 1 bash -c 'fuzz_one "$1" "$2"' _ <"$list" 2>&1 | tee "$logs/out"; then
  echo "fuzzing found a failure (above)"; exit 1
fi
echo "fuzzed $(grep -c '^ok ' "$logs/out" || true) of $found targets"
