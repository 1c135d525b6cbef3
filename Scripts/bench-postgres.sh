#!/usr/bin/env bash
# Runs strata-bench's PostgreSQL workloads against a throwaway server: initdb and pg_ctl in a
# temporary folder, a Unix socket only, stopped (and the folder removed) at exit.
#   Scripts/bench-postgres.sh [workload...]     (default: every pg- workload)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
folder="$(mktemp -d "${TMPDIR:-/tmp}/strata-bench-pg-XXXXXX")"
run_as=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$folder"
  run_as=(setpriv --reuid=postgres --regid=postgres --init-groups)
fi
stop() {
  "${run_as[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -s stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap stop EXIT
"${run_as[@]}" "$bin/initdb" -D "$folder/data" -U strata -A trust -E UTF8 --locale=C >/dev/null
"${run_as[@]}" "$bin/pg_ctl" -D "$folder/data" -o "-k $folder -c listen_addresses=''" -l "$folder/server.log" -w -s start
"$bin/createdb" -h "$folder" -U strata bench
export STRATA_BENCH_POSTGRES_URL="postgres://strata@/bench?host=$folder"
if [ "$#" -eq 0 ]; then set -- pg-insert pg-fetch pg-small-queries pg-aggregate; fi
# SWIFT_RUN_FLAGS replaces "-c release" (CI passes --skip-build for its debug build).
read -r -a flags <<< "${SWIFT_RUN_FLAGS:--c release}"
swift run "${flags[@]}" --package-path Benchmarks strata-bench "$@"
