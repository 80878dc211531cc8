#!/usr/bin/env bash
# agentd next to pi 0.73.1 (issue 18): installs pi from the npm registry into a scratch directory
# on first use (PI_PREFIX, default bench/target/pi; or point PI_BIN at an installed pi), then runs
# PeerBench: start-up (median of RUNS, default 10) and a DELTAS-delta reply (default 5000) in
# agentd's full and delta mode and pi's, both served by the same local SSE provider, with a reader
# that parses every line as JSON. Needs node and npm; never part of `mvn verify`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
pi_version="0.73.1"
pi_prefix="${PI_PREFIX:-$bench_dir/target/pi}"
pi_bin="${PI_BIN:-$pi_prefix/node_modules/.bin/pi}"
if [[ ! -x $pi_bin ]]; then
  echo "bench: installing @mariozechner/pi-coding-agent@$pi_version into $pi_prefix ..." >&2
  mkdir -p "$pi_prefix"
  npm install --prefix "$pi_prefix" --no-audit --no-fund "@mariozechner/pi-coding-agent@$pi_version" >&2
fi
ensure_tools
ensure_archive

echo "## agentd next to pi $("$pi_bin" --version 2>&1 | tail -n 1)"
echo
machine
echo "- nproc: $(nproc); $(lscpu 2>/dev/null | grep -m1 'Model name' | sed 's/  */ /g')"
echo
bench_java dev.agentd.bench.PeerBench --runs "${RUNS:-10}" --deltas "${DELTAS:-5000}" --prompts "${PROMPTS:-3}" \
  -- "$launcher" ";;" "$pi_bin"
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
