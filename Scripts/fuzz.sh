#!/usr/bin/env bash
# Fuzzes Strata with libFuzzer: builds the targets of Fuzz/ with -sanitize=fuzzer, runs each for
# SECONDS (default 60) from its committed corpus, then replays the corpus and every saved crash
# with a plain build. A crash fails the run and leaves its input in Fuzz/Regressions/TARGET/, to be
# committed once fixed: from then on every run replays it.
#
#   Scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
# The targets' scratch files (and SwiftPM's locks) go to a folder of this run, removed at its end.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"

# fuzz-import reads JSON into a generated model: generate it with the CLI (a fuzz build cannot
# apply the build plugin, whose tool's `main` would clash with libFuzzer's).
swift build --disable-build-manifest-caching --traits PostgreSQL --product strata
"$(swift build --traits PostgreSQL --show-bin-path)/strata" generate Tests/StrataEndToEndTests/Models/Shop --access internal --output Fuzz/Sources/fuzz-import/Generated

cd Fuzz
swift build --sanitize=fuzzer -Xswiftc -DFUZZING --scratch-path .build-fuzz
# A fuzzer uses one core: the targets run as many at a time as the machine has cores, each for
# SECONDS, and report in order when all are done.
fuzz() {
  local target="$1" work
  work="$(mktemp -d)"
  mkdir -p "Regressions/$target"
  SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/fuzz-$target" "$work" "Corpus/$target" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="Regressions/$target/" -print_final_stats=1 > "$scratch/fuzz-$target.log" 2>&1 || true
  rm -rf "$work"
}
cores="$(nproc)"
running=0
for target in model store import convert sync; do
  fuzz "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$cores" ]; then wait -n; running=$((running - 1)); fi
done
wait
for target in model store import convert sync; do
  echo "fuzz-$target: $seconds s"
  grep -E "^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|ERROR|Fatal error" "$scratch/fuzz-$target.log" || true
  # libFuzzer leaves crash-*, timeout-* or oom-* files in the artifact folder when it finds one.
  if ls "Regressions/$target" | grep -qE '^(crash|timeout|oom|leak)-'; then
    echo "fuzz-$target found a failing input in Fuzz/Regressions/$target"; exit 1
  fi
done

# The corpus and every saved regression, replayed by a plain build. It builds in the scratch
# folder that .ci/run's other packages depending on Strata share (.build-apps), whose builds of
# Strata and its dependencies it reuses; a build in a folder shared by two root packages must plan
# anew each time (SwiftPM would reuse the other package's plan).
swift build --scratch-path ../.build-apps --disable-build-manifest-caching
for target in model store import convert sync; do
  "../.build-apps/debug/fuzz-$target" "Corpus/$target" "Regressions/$target"
done
