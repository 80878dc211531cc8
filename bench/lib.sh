#!/usr/bin/env bash
# Shared by the bench scripts: paths, building what is missing (reactor builds only: nothing is
# installed into ~/.m2), the Java measuring tools, and a description of the machine.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench_dir/.." && pwd)"
jar="$root/rpc-server/target/agentd.jar"
launcher="$root/bin/agentd"
classes="$bench_dir/target/classes"
# A scratch agent directory: the benchmarks never touch ~/.agentd.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export AGENTD_DIR="$scratch/agent"
mkdir -p "$AGENTD_DIR"

# bin/agentd rebuilds the jar when it is missing or older than the sources (output on stderr).
ensure_jar() {
  "$launcher" --version >/dev/null
}

# The measuring tools are plain Java compiled against agentd.jar (which carries Jackson).
ensure_tools() {
  ensure_jar
  rm -rf "$classes"
  mkdir -p "$classes"
  javac -nowarn -d "$classes" -cp "$jar" "$bench_dir"/src/dev/agentd/bench/*.java
}

bench_java() {
  java -cp "$classes:$jar" "$@"
}

# bin/agentd trains its AppCDS archive in the background on the first launch with a new jar;
# wait for it (the current archive is the one newer than the jar).
archive_ready() {
  local f
  for f in "$root"/rpc-server/target/agentd-*.jsa; do
    [[ -f $f && $f -nt $jar ]] && return 0
  done
  return 1
}

ensure_archive() {
  archive_ready && return
  echo "bench: waiting for bin/agentd to train its AppCDS archive ..." >&2
  local i
  for i in $(seq 240); do
    # ensure_jar's launch started the trainer; start one again if it vanished (e.g. killed)
    [ "$i" -eq 120 ] && printf '%s\n' '{"type":"get_state","id":"bench"}' | "$launcher" --no-session >/dev/null 2>&1
    sleep 0.5
    archive_ready && return
  done
  echo "bench: no archive was created" >&2
  exit 1
}

# A redis-server of our own on a free loopback port, persisting nothing, stopped on exit; sets $port.
start_redis() {
  command -v redis-server >/dev/null || { echo "bench: redis-server is not installed (apt-get install redis-server)" >&2; exit 1; }
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$scratch" >"$scratch/redis.log" 2>&1 &
  redis_pid=$!
  trap 'kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
  local _
  for _ in $(seq 100); do
    redis-cli -p "$port" PING >/dev/null 2>&1 && return
    sleep 0.05
  done
}

# Median of the numbers on stdin.
median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

machine() {
  local cpu
  cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) cores (${cpu:-unknown CPU}), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr)"
  echo "- JDK: $(java -version 2>&1 | head -n 1)"
  echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- JVM hello world (java -version, median of 5): $(for _ in 1 2 3 4 5; do
      s=$(date +%s%N); java -version >/dev/null 2>&1; e=$(date +%s%N); echo $(((e - s) / 1000000)); done | median) ms"
}
