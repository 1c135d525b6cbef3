#!/bin/sh
# Kills migrations with SIGKILL at random moments, ROUNDS times (default 300), and checks after
# each that the store is whole at its old version or fully migrated, and that it migrates on the
# next open. CI runs a few rounds as part of `swift test`; this runs many.
#
# usage: Scripts/crash-test.sh [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests
STRATA_CRASH_ROUNDS="${1:-300}" swift test --skip-build --filter MigrationCrashTests
