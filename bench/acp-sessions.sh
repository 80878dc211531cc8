#!/usr/bin/env bash
# Many ACP sessions in one `agentd --mode acp` (issue 26 item 6): SESSIONS (default 10,50,100)
# sessions prompted at once, each streaming CHUNKS (100) faux chunks CHUNK_DELAY_MS (15) apart,
# ROUNDS (3) times, against one session alone; then live heap / RSS / threads with IDLE (50,200)
# idle sessions. Definitions of lateness and stall: AcpSessionsBench's javadoc and README.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
ensure_archive
command -v jcmd >/dev/null || { echo "bench: jcmd (from the JDK) is needed for the live heap" >&2; exit 1; }

machine
echo
echo "### ACP: concurrent sessions streaming from the faux model"
echo
bench_java dev.agentd.bench.AcpSessionsBench --sessions "${SESSIONS:-10,50,100}" --chunks "${CHUNKS:-100}" \
  --chunk-delay-ms "${CHUNK_DELAY_MS:-15}" --rounds "${ROUNDS:-3}" --solo "${SOLO:-5}" --idle "${IDLE:-50,200}" \
  ${ONLY:+--only "$ONLY"} -- "$launcher"
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
