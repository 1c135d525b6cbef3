#!/usr/bin/env bash
# The README's sync commands, as a new user runs them in three terminals: a PetServer with two
# accounts, and copies of PetStore that sync with it (`PetStore sync ... add-dog | list | watch`).
#
#   Scripts/try-sync-sample.sh PETSERVER_BINARY PETSTORE_BINARY
#
# Every wait is bounded; the server and the watcher are stopped, and the folder removed, on exit.
set -euo pipefail
petserver="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
petstore="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits up to 30 s for FILE to hold PATTERN.
wait_for() {
  for _ in $(seq 1 300); do
    if grep -q "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "no '$2' in $1 within 30 s:"; cat "$1"; return 1
}

(cd "$work" && exec "$petserver" --port 0 --accounts alice:secret1,bob:secret2 > server.log 2>&1) &
pids+=($!)
wait_for "$work/server.log" "PetServer listening on"
port="$(sed -n 's/^PetServer listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log")"
url="http://127.0.0.1:$port/sync"
device() { "$petstore" sync --server "$url" "$@"; }

# The phone watches; the laptop adds a dog; the phone's list shows it.
device --token secret1 --file "$work/phone.sqlite" watch > "$work/phone.txt" 2>&1 &
pids+=($!)
wait_for "$work/phone.txt" "dogs: none"
[ "$(device --token secret1 --file "$work/laptop.sqlite" add-dog Rex)" = "added Rex; synced" ]
wait_for "$work/phone.txt" "dogs: Rex"
# Another account shares the dogs; the JSON API serves them; a wrong token is refused.
[ "$(device --token secret2 --file "$work/bob.sqlite" list)" = "dogs: Rex" ]
python3 -c "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())" "http://127.0.0.1:$port/dogs" \
  | grep -q '"nickname":"Rex"'
if device --token wrong --file "$work/refused.sqlite" list > "$work/refused.txt" 2>&1; then
  echo "a wrong token was not refused"; exit 1
fi
grep -q "the server answered 401 to a pull: the bearer token is not valid" "$work/refused.txt"
echo "sync sample: ok"
