#!/usr/bin/env bash
# CPU an idle offers service spends (built bundle, embedded database, demo data): /proc ticks of the
# process over 60 s after a 20 s settle, printed as CPU-seconds per minute. Run from the repository root
# after `npm run build:offers`; pass another checkout's root to measure its build (alternate the two).
#
#   bash bench/offers-api/idle-cpu.sh [root] [port]
set -euo pipefail
root=${1:-.}
port=${2:-4990}
cd "$root"
data=$(mktemp -d)
DATA_DIR=$data OFFERS_PORT=$port OFFERS_ADMIN_TOKEN=idle-bench-admin-token-0123 OFFERS_DEMO_DATA=on LOG_LEVEL=warn NODE_ENV=production \
  node dist/offers/main.mjs >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
sleep 20
before=$(awk '{print $14+$15}' /proc/$pid/stat)
sleep 60
after=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "idle CPU: $(awk -v t=$((after - before)) 'BEGIN { printf "%.2f", t / 100 }') CPU-s per minute"
