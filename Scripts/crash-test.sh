#!/bin/sh
# Kills migrations and committing transactions with SIGKILL at random moments, ROUNDS times each
# (default 300), and checks after each kill: a migration left the store whole at its old version or
# fully migrated, and it migrates on the next open; every acknowledged commit is there whole and no
# other commit is there in part. CI runs a few rounds as part of `swift test`; this runs many.
#
# usage: Scripts/crash-test.sh [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests --traits PostgreSQL
STRATA_CRASH_ROUNDS="${1:-300}" swift test --skip-build --traits PostgreSQL --filter "MigrationCrashTests|CommitCrashTests"
