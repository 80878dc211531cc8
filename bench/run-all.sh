#!/usr/bin/env bash
# Runs every benchmark and writes bench/results/latest.md (results/ is not committed).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mkdir -p "$bench_dir/results"
out="$bench_dir/results/latest.md"
{
  echo "# agentd benchmarks"
  echo
  machine
  echo
  for script in startup stream retry rss acp-sessions jmh; do
    bash "$bench_dir/$script.sh"
    echo
  done
  echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
echo "bench: wrote $out" >&2
