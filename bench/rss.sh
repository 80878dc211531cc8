#!/usr/bin/env bash
# Idle memory (SPEC §10: RSS ≤ 120 MB): VmRSS of the daemon 2 s after it answered get_state.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
ensure_archive
runs="${RUNS:-5}"

echo "### Idle RSS (VmRSS 2 s after the first get_state)"
echo
echo "| launch | runs | get_state median ms | min | max | ready median | RSS median MB | RSS max MB |"
echo "|---|---|---|---|---|---|---|---|"
bench_java dev.agentd.bench.StartupBench --runs "$runs" --rss-after-ms 2000 -- \
  "bin/agentd (AppCDS archive)" - "$launcher" ";;" \
  "bin/agentd, AGENTD_CDS=off" AGENTD_CDS=off "$launcher"
