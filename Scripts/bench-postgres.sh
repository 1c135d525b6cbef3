#!/usr/bin/env bash
# Runs strata-bench's PostgreSQL workloads against a throwaway server (Scripts/with-postgres.sh).
#   Scripts/bench-postgres.sh [workload...]     (default: every pg- workload)
# SWIFT_RUN_FLAGS replaces "-c release" (CI passes --skip-build for its debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then set -- pg-insert pg-import-150k pg-fetch pg-small-queries pg-aggregate pg-throughput; fi
read -r -a flags <<< "${SWIFT_RUN_FLAGS:--c release}"
exec Scripts/with-postgres.sh bash -c \
  'STRATA_BENCH_POSTGRES_URL="$STRATA_POSTGRES_URL" exec swift run "$@"' swift-run "${flags[@]}" --package-path Benchmarks strata-bench "$@"
