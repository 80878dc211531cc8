#!/usr/bin/env bash
# Streaming (SPEC §10, §3.4): a local OpenAI-compatible SSE server streams n deltas to the daemon
# (a models.json provider); the client times prompt → agent_end and counts the stdout bytes, in
# delta and full update mode. Each daemon serves PROMPTS prompts (default 4): the first is cold.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
ensure_archive
prompts="${PROMPTS:-4}"

echo "### Streaming: prompt sent → agent_end received"
echo
echo "| updates | deltas | first reply, cold JVM (ms) | warm replies, median (ms) | stdout bytes per reply | bytes per delta | message_update lines |"
echo "|---|---|---|---|---|---|---|"
bench_java dev.agentd.bench.StreamBench --deltas 1000,2000,5000 --modes delta,full --prompts "$prompts" -- "$launcher"
echo
echo "With C2 (AGENTD_JAVA_OPTS=-XX:TieredStopAtLevel=4), for comparison:"
echo
echo "| updates | deltas | first reply, cold JVM (ms) | warm replies, median (ms) | stdout bytes per reply | bytes per delta | message_update lines |"
echo "|---|---|---|---|---|---|---|"
AGENTD_JAVA_OPTS=-XX:TieredStopAtLevel=4 bench_java dev.agentd.bench.StreamBench --deltas 5000 \
  --modes delta,full --prompts "$prompts" -- "$launcher"
