#!/usr/bin/env bash
# The Redis store (state.store = redis): latency per operation against a local redis-server on a
# free loopback port (started here, persisting nothing), and the round trips each operation
# costs, read from the server's command counters. OPS (default 5000) per operation.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
start_redis
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
