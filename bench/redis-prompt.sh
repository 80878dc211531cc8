#!/usr/bin/env bash
# The Redis store's cost per prompt on the happy path: the daemon (faux provider, no network
# beyond Redis) answers PROMPTS prompts with the file store and with Redis, without and with a
# fallback chain; prints the Redis calls the server counted per prompt and the mean time per
# prompt (prompt sent → agent_end read) for each.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_jar
start_redis
prompts=${PROMPTS:-200}

calls() { redis-cli -p "$port" INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_\([a-z]*\):calls=\([0-9]*\).*/\1 \2/p' \
  | awk '$1!="info" && $1!="config" {n+=$2} END {print n+0}'; }

run() { # $1 label, $2 settings.json content, $3 state url or empty
  local dir="$scratch/$1"; mkdir -p "$dir"; echo "$2" > "$dir/settings.json"
  redis-cli -p "$port" FLUSHALL >/dev/null
  local before; before=$(calls)
  local ms
  ms=$(AGENTD_DIR="$dir" AGENTD_STATE_URL="$3" python3 - "$jar" "$prompts" <<'PY'
import json, subprocess, sys, time
jar, n = sys.argv[1], int(sys.argv[2])
p = subprocess.Popen(["java", "-jar", jar, "--no-session"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
def until(kind):
    for line in p.stdout:
        if json.loads(line).get("type") == kind:
            return
def prompt(i):
    p.stdin.write(json.dumps({"type": "prompt", "message": "hello %d" % i}) + "\n"); p.stdin.flush()
    until("agent_end")
for i in range(20):
    prompt(i)            # warm-up: class loading, JIT, the first Redis connection
start = time.perf_counter()
for i in range(n):
    prompt(i)
elapsed = time.perf_counter() - start
p.stdin.close(); p.wait()
print("%.3f" % (elapsed * 1000 / n))
PY
)
  local after; after=$(calls)
  printf '| %s | %s | %s |\n' "$1" "$(python3 -c "print(round(($after-$before)/($prompts+20), 2))")" "$ms"
}

chain='{"retry":{"fallbackChains":{"faux/faux-1":["faux/faux-2"]}}}'
echo "### Redis per prompt ($prompts prompts after 20 warm-up, faux provider, $(redis-server --version | sed 's/ sha=.*//'))"
echo
echo "| store, chain | Redis calls per prompt | ms per prompt |"
echo "|---|---|---|"
run "file, no chain" '{}' ""
run "redis, no chain" '{}' "redis://127.0.0.1:$port/0"
run "file, chain" "$chain" ""
run "redis, chain" "$chain" "redis://127.0.0.1:$port/0"
echo
machine
