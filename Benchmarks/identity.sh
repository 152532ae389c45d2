#!/usr/bin/env bash
# Byte identity: does this checkout's `trigsim` write exactly what BASE_REF's
# writes? For every bundled scenario under scenarios/ (the subfolders
# included), `trigsim run` with each of the option sets below, run by both
# binaries from the scenario's folder; standard output, standard error and the
# exit status must be the same, byte for byte. A change that only moves code
# (a refactoring) must pass this against the commit before it.
#
#   Benchmarks/identity.sh BASE_REF                       # builds both (debug), compares
#   Benchmarks/identity.sh --baseline-binary PATH         # compares PATH with this checkout's build
#   Benchmarks/identity.sh --baseline-binary PATH --candidate-binary PATH2   # builds nothing
#   --scenarios DIR compares the scenarios under DIR instead of scenarios/.
#
# BASE_REF is built in a temporary `git worktree` (a debug build: the output
# does not depend on the optimisation level); the checkout with
# `swift build --product trigsim`. Prints one line per differing run
# (with the first lines of each difference) and a total, "compared N runs,
# M differ"; exits 0 when none differ, 1 when any does, 2 on a usage or
# build error. The worktree and every temporary file are removed on every
# exit, interrupted or not.
set -uo pipefail

usage() {
  echo "usage: Benchmarks/identity.sh [--scenarios DIR] [--candidate-binary PATH] (BASE_REF | --baseline-binary PATH)" >&2
  exit 2
}

baseRef="" baseline="" candidate="" scenarioFolder=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline-binary) [ $# -ge 2 ] || usage; baseline=$2; shift 2 ;;
    --candidate-binary) [ $# -ge 2 ] || usage; candidate=$2; shift 2 ;;
    --scenarios) [ $# -ge 2 ] || usage; scenarioFolder=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "identity.sh: unknown option '$1'" >&2; usage ;;
    *) [ -z "$baseRef" ] || usage; baseRef=$1; shift ;;
  esac
done
# Exactly one baseline: a ref to build or a binary.
if { [ -n "$baseRef" ] && [ -n "$baseline" ]; } || { [ -z "$baseRef" ] && [ -z "$baseline" ]; }; then usage; fi

TOOL=identity
. "$(dirname "$0")/baseline-worktree.sh"
scenarioFolder=$(realpath "${scenarioFolder:-$root/scenarios}") || exit 2

# Debug builds: the output does not depend on the configuration, and they build faster.
if [ -n "$baseRef" ]; then
  addBaselineWorktree "$baseRef"
  baseline=$(buildAt "$worktree" trigsim) || exit 2
fi
if [ -z "$candidate" ]; then
  candidate=$(buildAt "$root" trigsim) || exit 2
fi
baseline=$(realpath "$baseline") && candidate=$(realpath "$candidate") || exit 2
for binary in "$baseline" "$candidate"; do
  [ -x "$binary" ] || { echo "identity.sh: $binary is not an executable" >&2; exit 2; }
done

# The option sets: every output format, the summary, the assumption report,
# both phones, seeded trials on one and two workers, and one trial alone.
optionSets=(
  ""
  "--summary"
  "-f json"
  "-f jsonl"
  "-f csv"
  "-f geojson"
  "--assumptions --summary"
  "--platform ios,android"
  "--platform android --summary"
  "--trials 20 --seed 7 --jobs 1"
  "--trials 20 --seed 7 --jobs 2 -f json"
  "--trial 3 --seed 7"
)

# Runs `$1 run OPTIONS SCENARIO` in the scenario's folder; output to $4.out and $4.err, the exit status appended to $4.err.
runOnce() {
  local binary=$1 options=$2 scenario=$3 output=$4
  # shellcheck disable=SC2086 # the option set is split into words on purpose
  (cd "$(dirname "$scenario")" && timeout 300 "$binary" run $options "$(basename "$scenario")" >"$output.out" 2>"$output.err"
   echo "exit status $?" >>"$output.err")
}

compared=0 differ=0
while IFS= read -r scenario; do
  for options in "${optionSets[@]}"; do
    compared=$((compared + 1))
    runOnce "$baseline" "$options" "$scenario" "$work/baseline-run"
    runOnce "$candidate" "$options" "$scenario" "$work/candidate-run"
    if ! cmp -s "$work/baseline-run.out" "$work/candidate-run.out" || ! cmp -s "$work/baseline-run.err" "$work/candidate-run.err"; then
      differ=$((differ + 1))
      echo "DIFFERS: trigsim run ${options:+$options }${scenario#"$root"/}"
      diff "$work/baseline-run.out" "$work/candidate-run.out" | head -5 | sed 's/^/  stdout: /'
      diff "$work/baseline-run.err" "$work/candidate-run.err" | head -5 | sed 's/^/  stderr: /'
    fi
  done
done < <(find "$scenarioFolder" -name '*.yaml' -type f | LC_ALL=C sort)

echo "compared $compared runs, $differ differ"
[ "$differ" -eq 0 ]
