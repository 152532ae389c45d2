#!/usr/bin/env bash
# Coverage-guided fuzzing of trigsim's readers with libFuzzer and
# AddressSanitizer (clang's runtimes ship with the Swift toolchain).
#
#   Tests/Fuzz/fuzz.sh [--seconds N | --smoke] [TARGET...]
#
# --smoke (what .ci/run uses) runs each target a fixed number of inputs,
# about 30 s each on the development machine, from the seeds alone, so that
# a clean clone's run is the same on every machine (same seed, same inputs).
# Targets: gpx csv scenario expected-text expected-json expected-doses geojson places scenario-files report partial baselines merge
# scenario-files report (default: all), each
# run for N seconds (default 60). Builds into .build-fuzz/ (release, with
# AddressSanitizer and libFuzzer's coverage instrumentation), keeps each target's growing corpus in
# .build-fuzz/corpus/TARGET (seeded from fixtures/ and scenarios/ and from the
# regression inputs in fixtures/fuzz/TARGET), and saves any crashing, hanging
# or memory-hungry input as .build-fuzz/findings/TARGET-*. Exits 1 when a
# target found something: copy the input into fixtures/fuzz/TARGET/ (as
# reject-NAME or accept-NAME), fix the reader, and the regression test replays it.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=60
smoke=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --smoke) smoke=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    gpx|csv|scenario|expected-text|expected-json|expected-doses|geojson|places|scenario-files|report|partial|baselines|merge) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (targets: gpx csv scenario expected-text expected-json expected-doses geojson places scenario-files report partial baselines merge)" >&2; exit 64 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(gpx csv scenario expected-text expected-json expected-doses geojson places scenario-files report partial baselines merge)

scratch=.build-fuzz
# Not `-sanitize=fuzzer`: its link brings libFuzzer's own main, which clashes
# with the main SwiftPM gives every executable. So the code is instrumented
# as `-sanitize=fuzzer` would (ASan plus libFuzzer's coverage), libFuzzer is
# linked without its main, and each program's main starts it (FuzzDriver).
runtime="$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang"
runtime="$(ls -d "$runtime"/*/lib/linux | head -1)"
build=(swift build -c release --scratch-path "$scratch"
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
  -Xswiftc -DTRIGSIM_FUZZ
  -Xlinker --undefined=LLVMFuzzerRunDriver -Xlinker "$runtime/libclang_rt.fuzzer_no_main-x86_64.a"
  -Xlinker -lstdc++ -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver)
for target in "${targets[@]}"; do "${build[@]}" --product "fuzz-$target"; done
bin="$("${build[@]}" --show-bin-path)"

# Seed files per target: what trigsim's own fixtures and scenarios offer,
# but fixtures/hostile/: its scenarios are meant to run until `test` stops
# them, so as seeds they would be the fuzzer's first (and known) timeout.
seeds() {
  case "$1" in
    gpx) find fixtures -name '*.gpx' ;;
    csv) find fixtures -name '*.csv' ;;
    scenario|report) find scenarios fixtures -name '*.yaml' -not -path 'fixtures/hostile/*' ;;
    expected-text) find scenarios fixtures -name '*.timeline' ;;
    expected-json) find scenarios fixtures -name '*.json' ;;
    expected-doses) find scenarios fixtures -name '*.doses' ;;
    geojson) find scenarios fixtures -name '*.geojson' ;;
    places) find fixtures/places -name '*.csv' ;;
    scenario-files) find fixtures -name '*.bundle' ;;
    partial|merge) ;;  # fixtures/fuzz/partial/ and merge/ hold their seeds
    baselines) find scenarios fixtures -name '*.assumptions' -o -name '*.platforms' -o -name '*.trials' ;;
  esac
}

# Swift's crash reporter would read the crashed process's memory under ASan;
# libFuzzer reports the trap itself. Swift's runtime keeps some allocations
# for the process's life (caches, metadata): leak reports would be noise.
export SWIFT_BACKTRACE=enable=no
# Swift seeds its hash tables per process, which changes the coverage libFuzzer
# sees and so the inputs it tries: without a fixed seed, the smoke would try
# different inputs on every run despite -seed. Longer runs keep the random seed,
# so behaviour that depends on hash order is explored in more than one order.
[ "$smoke" = 1 ] && export SWIFT_DETERMINISTIC_HASHING=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

# Inputs per target for --smoke: about 30 s each at the development machine's rates.
smoke_runs() {
  case "$1" in
    gpx) echo 20000 ;; csv) echo 10000 ;; scenario) echo 15000 ;;
    expected-text) echo 2500 ;; expected-json) echo 150000 ;; expected-doses) echo 10000 ;; report) echo 2500 ;;
    geojson) echo 3500 ;; places) echo 3500 ;; scenario-files) echo 7000 ;; partial) echo 20000 ;;
    baselines) echo 20000 ;; merge) echo 10000 ;;
  esac
}

# The dictionary per target; the report's adds its own words to the scenario's.
dictionary() {
  if [ "$1" = report ]; then
    cat Tests/Fuzz/dictionaries/scenario.dict Tests/Fuzz/dictionaries/report.dict >"$scratch/report.dict"
    echo "$scratch/report.dict"
  else
    echo "Tests/Fuzz/dictionaries/$1.dict"
  fi
}

status=0
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"
  findings="$scratch/findings"
  # A smoke starts from the seeds alone; a longer run keeps what it grew.
  [ "$smoke" = 1 ] && rm -rf "$corpus"
  mkdir -p "$corpus" "$findings"
  seeds "$target" | while read -r file; do cp "$file" "$corpus/seed-$(basename "$file")"; done
  [ -d "fixtures/fuzz/$target" ] && cp "fixtures/fuzz/$target/"* "$corpus/" 2>/dev/null || true
  if [ "$smoke" = 1 ]; then
    # The time cap only guards against a machine far slower than ours.
    length=(-runs="$(smoke_runs "$target")" -max_total_time=300)
  else
    length=(-max_total_time="$seconds")
  fi
  echo "== fuzz-$target: ${length[*]}, $(find "$corpus" -type f | wc -l) corpus inputs"
  # -seed fixes the mutation sequence; -timeout and -rss_limit_mb turn a
  # hang (5 s on one input) or runaway memory (2 GB with ASan's own overhead,
  # or one allocation over 512 MB) into a finding.
  if ! "$bin/fuzz-$target" "$corpus" \
      "${length[@]}" -seed=1 -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=512 \
      -dict="$(dictionary "$target")" -artifact_prefix="$findings/$target-" \
      -print_final_stats=1 2>"$scratch/fuzz-$target.log"; then
    status=1
    echo "fuzz-$target FOUND A PROBLEM: see $scratch/fuzz-$target.log and $findings/" >&2
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$scratch/fuzz-$target.log" | head -20 >&2 || true
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$scratch/fuzz-$target.log" | sed "s/^/   /"
  fi
done
exit $status
