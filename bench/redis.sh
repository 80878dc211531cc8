#!/usr/bin/env bash
# The Redis store (state.store = redis): latency per operation against a local redis-server on a
# free loopback port (started here, persisting nothing), and the round trips each operation
# costs, read from the server's command counters. OPS (default 5000) per operation.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v redis-server >/dev/null || { echo "bench: redis-server is not installed (apt-get install redis-server)" >&2; exit 1; }
ensure_tools

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$scratch" >"$scratch/redis.log" 2>&1 &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 100); do
  redis-cli -p "$port" PING >/dev/null 2>&1 && break
  sleep 0.05
done
cli() { redis-cli -p "$port" "$@"; }
cli SCRIPT FLUSH >/dev/null
cli CONFIG RESETSTAT >/dev/null
ops=${OPS:-5000}

echo "### Redis store: latency per operation (µs, loopback, $(redis-server --version | sed 's/ sha=.*//'))"
echo
echo "| operation | samples | median | p99 | max |"
echo "|---|---|---|---|---|"
bench_java dev.agentd.bench.RedisBench --url "redis://127.0.0.1:$port/0" --ops "$ops"
echo
# Calls the server saw against the operations the benchmark made: 8 measured loops of OPS plus
# their warm-ups (the prompt loop makes two calls per iteration, list one), 2 setup calls.
stats=$(cli INFO commandstats | tr -d '\r')
calls() { echo "$stats" | sed -n "s/^cmdstat_$1:calls=\([0-9]*\),.*/\1/p"; }
warm=$(( ops < 2000 ? ops : 2000 ))
echo "Round trips: $(calls evalsha) EVALSHA and $(calls eval) EVAL (once per script after the SCRIPT FLUSH) \
for $(( 8 * (ops + warm) + 2 )) operations: one round trip per operation."
