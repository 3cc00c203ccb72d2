#!/usr/bin/env bash
# Runs the inventory example as a small deployment on this machine: Redis, two instances of the
# generated server, nginx in front on http://127.0.0.1:8080/mcp. Ctrl-C stops everything.
# Needs: npm ci && npx tsc -p generated/inventory (compiles the generated package to generated/inventory/dist),
# redis-server and nginx on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
mkdir -p "$work/tmp"/{body,proxy,fastcgi,uwsgi,scgi}
trap 'kill 0' EXIT
redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" &
# Every instance: the same Redis and the same requestState keys (the first signs, all verify).
export REDIS_URL=redis://127.0.0.1:6390
export MCPGEN_REQUEST_STATE_KEYS="${MCPGEN_REQUEST_STATE_KEYS:-k1:$(head -c 48 /dev/urandom | base64 -w0)}"
INSTANCE_ID=a node generated/inventory/dist/main.js --http --port 3001 &
INSTANCE_ID=b node generated/inventory/dist/main.js --http --port 3002 &
cp deploy/nginx.conf "$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work" &
wait
