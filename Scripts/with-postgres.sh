#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: initdb and pg_ctl in a temporary folder, a
# Unix socket only, an empty database `strata`; STRATA_POSTGRES_URL names it. The server is stopped
# and the folder removed when the command ends.
#   Scripts/with-postgres.sh COMMAND [ARGUMENT...]
set -euo pipefail
bin="$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
folder="$(mktemp -d "${TMPDIR:-/tmp}/strata-postgres-XXXXXX")"
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
"$bin/createdb" -h "$folder" -U strata strata
export STRATA_POSTGRES_URL="postgres://strata@/strata?host=$folder"
"$@"
