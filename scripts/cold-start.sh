#!/usr/bin/env bash
# Measures the cold start: from launching the start command on an empty data folder to the first
# answered GET /api/v1/service/info. Usage: scripts/cold-start.sh [runs] [command...]
# (default command: npm start). Needs a built checkout (npm install).
set -eu
runs=${1:-5}; shift || true
cmd=${*:-npm start}
for i in $(seq 1 "$runs"); do
  dir=$(mktemp -d)
  port=$(( 30000 + RANDOM % 20000 ))
  t0=$(date +%s%N)
  DATABASE_URL="$dir/conveyor.db" PORT=$port LOG_LEVEL=warn setsid $cmd >"$dir/log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/api/v1/service/info" >/dev/null 2>&1; do sleep 0.005; done
  echo "run $i: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  kill -- -"$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
done
