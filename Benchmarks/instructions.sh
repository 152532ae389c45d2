#!/usr/bin/env bash
# Instruction counts: what this checkout's `trigsim run` costs against
# BASE_REF's on the benchmark's representative scenarios, counted by
# valgrind's callgrind (instructions executed, `Ir`, of the whole process,
# start-up included), which unlike wall time does not move with the load on
# the machine.
#
#   Benchmarks/instructions.sh BASE_REF                 # release builds of both, 1-day scenarios
#   Benchmarks/instructions.sh --days 7 --limit 1.05 BASE_REF
#   Benchmarks/instructions.sh --baseline-binary PATH --candidate-binary PATH --benchmark-binary PATH
#
# The scenarios are what `trigsim-benchmark --write-inputs` writes (the
# checkout's benchmark program, so both builds run the same files): the
# medicine app table's scenario (medicine), the attention table's (Focus and
# pushes: attention), the two-phone table's pair (phone-ios, phone-android),
# the event storm on Android (storm-android), the server's three-channel
# escalation (server) and 5 000 places (places). The storm on iOS
# (storm-ios) writes 580,000 entries a day, over a minute of release run and
# an hour under callgrind, so it runs only when --only names it. Options:
#   --days N                 the synthetic track's length (default 1)
#   --only NAME,NAME         these scenarios alone
#   --limit RATIO            exit 1 when any candidate ÷ baseline is above RATIO
#   --baseline-binary PATH   BASE_REF's `trigsim` already built (no worktree, no build)
#   --candidate-binary PATH  the checkout's `trigsim` already built
#   --benchmark-binary PATH  the checkout's `trigsim-benchmark` already built (any configuration)
#
# BASE_REF is built with `swift build -c release --product trigsim` in a
# temporary `git worktree`, the checkout likewise (with trigsim-benchmark);
# the worktree and every temporary file are removed on every exit. Prints,
# per scenario, the timeline's entries, the two counts, the ratio
# candidate ÷ baseline and whether the two timelines are the same; then the
# instructions per timeline entry on the iPhone and on the Android phone
# (the two-phone pair, and the storm's when it ran).
# Exits 0, 1 (over --limit) or 2 (a usage, build or run error). Needs
# valgrind (`apt-get install -y valgrind`) and strip (binutils).
set -uo pipefail

usage() {
  echo "usage: Benchmarks/instructions.sh [--days N] [--only NAMES] [--limit RATIO] [--candidate-binary PATH] [--benchmark-binary PATH] (BASE_REF | --baseline-binary PATH)" >&2
  exit 2
}

baseRef="" baseline="" candidate="" benchmark="" days=1 limit=""
only=medicine,attention,phone-ios,phone-android,storm-android,server,places
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline-binary) [ $# -ge 2 ] || usage; baseline=$2; shift 2 ;;
    --candidate-binary) [ $# -ge 2 ] || usage; candidate=$2; shift 2 ;;
    --benchmark-binary) [ $# -ge 2 ] || usage; benchmark=$2; shift 2 ;;
    --days) [ $# -ge 2 ] || usage; days=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
    --limit) [ $# -ge 2 ] || usage; limit=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "instructions.sh: unknown option '$1'" >&2; usage ;;
    *) [ -z "$baseRef" ] || usage; baseRef=$1; shift ;;
  esac
done
if { [ -n "$baseRef" ] && [ -n "$baseline" ]; } || { [ -z "$baseRef" ] && [ -z "$baseline" ]; }; then usage; fi
[[ "$days" =~ ^[1-9][0-9]*$ ]] || { echo "instructions.sh: --days takes a whole number of days" >&2; exit 2; }
[ -z "$limit" ] || [[ "$limit" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "instructions.sh: --limit takes a ratio such as 1.05" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 2; }

TOOL=instructions
. "$(dirname "$0")/baseline-worktree.sh"

if [ -n "$baseRef" ]; then
  addBaselineWorktree "$baseRef"
  baseline=$(buildAt "$worktree" trigsim -c release) || exit 2
fi
if [ -z "$candidate" ]; then
  candidate=$(buildAt "$root" trigsim -c release) || exit 2
fi
if [ -z "$benchmark" ]; then
  benchmark=$(buildAt "$root" trigsim-benchmark -c release) || exit 2
fi
for binary in "$baseline" "$candidate" "$benchmark"; do
  [ -x "$binary" ] || { echo "instructions.sh: $binary is not an executable" >&2; exit 2; }
done
# Callgrind counts stripped copies: this valgrind cannot read the DWARF 5 debug
# information Swift writes, and the instructions are the same without it.
strip -o "$work/baseline-trigsim" "$baseline" && strip -o "$work/candidate-trigsim" "$candidate" || exit 2

# "NAME-Nd PATH" lines, one per scenario.
"$benchmark" --write-inputs "$work/inputs" --days "$days" >"$work/inputs.txt" || { echo "instructions.sh: $benchmark --write-inputs failed" >&2; exit 2; }

# Counts the instructions of `$1 run $2 --output $3` under callgrind; prints them.
countInstructions() {
  local binary=$1 scenario=$2 timeline=$3
  # Swift seeds its hashing at random in each process, which moves the count from run to run;
  # a fixed seed makes a small scenario's count repeat (the output does not depend on it).
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$binary" run "$scenario" --output "$timeline" \
    >"$work/valgrind.log" 2>&1 || { echo "instructions.sh: $binary run $scenario failed under valgrind:" >&2; tail -20 "$work/valgrind.log" >&2; return 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$work/callgrind.out"
}

# Timeline entries: the lines that are neither blank nor a `#` header.
entries() { grep -cv -e '^#' -e '^$' "$1"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "instructions (callgrind Ir, whole process) of \`trigsim run\`, ${days}-day scenarios; baseline = ${baseRef:-$baseline}, candidate = the checkout${candidate:+ ($candidate)}"
echo "| scenario | entries | baseline Ir | candidate Ir | candidate ÷ baseline | timelines |"
echo "|---|---:|---:|---:|---:|---|"
over=0 failed=0
declare -A perEntry=()
while read -r name path; do
  short=${name%-*d}
  [[ ",$only," == *",$short,"* ]] || continue
  base=$(countInstructions "$work/baseline-trigsim" "$path" "$work/$name.baseline.timeline") || { failed=1; continue; }
  cand=$(countInstructions "$work/candidate-trigsim" "$path" "$work/$name.candidate.timeline") || { failed=1; continue; }
  count=$(entries "$work/$name.candidate.timeline")
  same=same
  cmp -s "$work/$name.baseline.timeline" "$work/$name.candidate.timeline" || same=DIFFER
  r=$(ratio "$cand" "$base")
  echo "| $name | $count | $base | $cand | $r | $same |"
  if [ -n "$limit" ] && awk -v r="$r" -v l="$limit" 'BEGIN { exit !(r > l) }'; then over=1; fi
  case $short in
    phone-ios | phone-android | storm-ios | storm-android)
      perEntry[$short]="$(ratio "$base" "$(entries "$work/$name.baseline.timeline")") $(ratio "$cand" "$count")" ;;
  esac
done <"$work/inputs.txt"

if [ ${#perEntry[@]} -gt 0 ]; then
  echo ""
  echo "instructions per timeline entry on each phone (phone: the medicine scenario; storm: with the app opened and backgrounded every 30 s)"
  echo "| scenario | baseline Ir/entry | candidate Ir/entry |"
  echo "|---|---:|---:|"
  for scenario in phone-ios phone-android storm-ios storm-android; do
    [ -n "${perEntry[$scenario]:-}" ] || continue
    read -r b c <<<"${perEntry[$scenario]}"
    echo "| $scenario | ${b%.*} | ${c%.*} |"
  done
  for pair in phone storm; do
    [ -n "${perEntry[$pair-ios]:-}" ] && [ -n "${perEntry[$pair-android]:-}" ] || continue
    read -r iosBase iosCand <<<"${perEntry[$pair-ios]}"
    read -r androidBase androidCand <<<"${perEntry[$pair-android]}"
    echo "$pair, android ÷ ios per entry: $(ratio "$androidBase" "$iosBase") (baseline), $(ratio "$androidCand" "$iosCand") (candidate)"
  done
fi

[ "$failed" -eq 0 ] || exit 2
if [ "$over" -ne 0 ]; then
  echo "instructions.sh: a candidate ÷ baseline is above $limit" >&2
  exit 1
fi
