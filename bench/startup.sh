#!/usr/bin/env bash
# Startup (SPEC §10: median ≤ 300 ms from spawn to the response to a first get_state): cold
# starts of the daemon, each in a fresh agent and working directory, with and without the AppCDS
# archive of bin/agentd, the variants taking turns. RUNS (default 20) sets the runs per variant.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
ensure_archive
runs="${RUNS:-20}"

echo "### Startup: spawn → response to the first get_state (ms)"
echo
echo "| launch | runs | median | min | max | ready (median) |"
echo "|---|---|---|---|---|---|"
bench_java dev.agentd.bench.StartupBench --runs "$runs" -- \
  "bin/agentd (AppCDS archive, C1)" - "$launcher" ";;" \
  "bin/agentd, AGENTD_CDS=off (no archive)" AGENTD_CDS=off "$launcher" ";;" \
  "bin/agentd with C2 (AGENTD_JAVA_OPTS=-XX:TieredStopAtLevel=4)" AGENTD_JAVA_OPTS=-XX:TieredStopAtLevel=4 "$launcher" ";;" \
  "java -jar agentd.jar (no launcher, no archive)" - java -jar "$jar"

# The whole process (spawn, get_state, EOF, orderly exit), timed from outside.
input="$scratch/get_state.jsonl"
printf '%s\n' '{"type":"get_state","id":"1"}' > "$input"
echo
echo "Whole process (spawn → get_state → EOF → exit), $runs runs:"
echo
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine --style basic --warmup 2 --runs "$runs" --export-markdown "$scratch/hyperfine.md" \
    -n "bin/agentd" "$launcher < $input" \
    -n "bin/agentd, AGENTD_CDS=off" "AGENTD_CDS=off $launcher < $input" >/dev/null
  cat "$scratch/hyperfine.md"
else
  echo "| command (plain bash loop; hyperfine not installed) | median ms |"
  echo "|---|---|"
  for cds in auto off; do
    ms="$(for _ in $(seq "$runs"); do
      s=$(date +%s%N); AGENTD_CDS=$cds "$launcher" < "$input" >/dev/null 2>&1; e=$(date +%s%N)
      echo $(((e - s) / 1000000)); done | median)"
    echo "| bin/agentd, AGENTD_CDS=$cds | $ms |"
  done
fi
