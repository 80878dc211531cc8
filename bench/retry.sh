#!/usr/bin/env bash
# Retry timing (SPEC §10): backoff sleeps against their announced delayMs (503, 503, then a
# reply, per trial; base delay 200 ms), and abort_retry during a 10 s backoff. TRIALS (default 8).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tools
ensure_archive

echo "### Retry timing (ms)"
echo
echo "| measure | samples | median | p95 | max | target |"
echo "|---|---|---|---|---|---|"
bench_java dev.agentd.bench.RetryBench --trials "${TRIALS:-8}" -- "$launcher"
