# Shared plumbing for the shell examples: source it, do not run it.
#
# The daemon reads commands from stdin until EOF and answers on stdout, one JSON object per line.
# These scripts keep its stdin open (a fifo on fd 3) while they read its output (fd 4), and close
# it once the run is over: the daemon then shuts down by itself. jq turns each record into one
# line "tag<US>field<US>field…" (US = \x1f) that a bash `read` can split; text fields are made
# single-line (backslash → \\, newline → \n) and come back with printf '%b'.
#
# AGENTD_CMD overrides how the daemon is started (default: bin/agentd of this repository), e.g.
#   AGENTD_CMD="java -jar rpc-server/target/agentd.jar" examples/shell/ask.sh "Hi"
# It is split on whitespace. The daemon's log goes to stderr.

set -euo pipefail

if ! command -v jq >/dev/null 2>&1; then
  echo "$(basename "$0"): jq is required (apt-get install jq, brew install jq)" >&2
  exit 2
fi

AGENTD_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
read -r -a AGENTD_COMMAND <<<"${AGENTD_CMD:-$AGENTD_ROOT/bin/agentd}"

# Records that are not listed here are dropped.
AGENTD_FILTER='
  def safe: tostring | gsub("\\\\"; "\\\\") | gsub("\n"; "\\n");
  [ if .type == "message_update" and .assistantMessageEvent.type == "text_delta" then
      "text", (.assistantMessageEvent.delta | safe)
    elif .type == "message_end" and .message.role == "assistant" then
      "reply_end", .message.stopReason, (.message.errorMessage // "" | safe)
    elif .type == "tool_execution_start" then
      "tool", .toolName, (.args | tojson | safe)
    elif .type == "agent_end" then
      "agent_end", (.willRetry // false)
    elif .type == "auto_retry_start" then
      "retry_start", .attempt, .maxAttempts, .delayMs, (.errorMessage // "" | safe)
    elif .type == "auto_retry_end" then
      "retry_end", .success, .attempt, (.finalError // "" | safe)
    elif .type == "response" then
      "response", (.id // ""), .command, .success,
      (if .success then (.data // null | tojson) else .error end | safe)
    else empty end
  ] | select(length > 0) | map(tostring) | join("\u001f")'

# agentd_start [daemon args…]: starts the daemon with its stdout going through the filter.
agentd_start() {
  AGENTD_TMP="$(mktemp -d)"
  trap 'rm -rf "$AGENTD_TMP"' EXIT
  mkfifo "$AGENTD_TMP/in" "$AGENTD_TMP/out"
  "${AGENTD_COMMAND[@]}" "$@" <"$AGENTD_TMP/in" | jq --unbuffered -r "$AGENTD_FILTER" >"$AGENTD_TMP/out" &
  AGENTD_PID=$!
  exec 3>"$AGENTD_TMP/in" 4<"$AGENTD_TMP/out"
}

# agentd_send JSON: writes one command line to the daemon.
agentd_send() {
  printf '%s\n' "$1" >&3
}

# agentd_next: reads the next filtered record into the array EVENT (tag first); fails at the end.
agentd_next() {
  IFS=$'\x1f' read -r -a EVENT <&4
}

# agentd_follow_run HANDLER: calls `HANDLER tag field…` for every record until the prompt's run is
# over, retries included — the rule RpcClient.promptAndWait follows:
#   * agent_end{willRetry:false} ends it, unless a retry chain is open (its auto_retry_end follows);
#   * auto_retry_end{success:false} ends it (retries exhausted, or cancelled);
#   * a failed response to a prompt ends it (refused, or failed before running): returns 1.
agentd_follow_run() {
  local handler="$1" retrying=false
  while agentd_next; do
    "$handler" "${EVENT[@]}"
    case "${EVENT[0]}" in
      retry_start) retrying=true ;;
      retry_end)
        retrying=false
        if [[ "${EVENT[1]}" == false ]]; then return 0; fi ;;
      agent_end)
        if [[ "${EVENT[1]}" == false && "$retrying" == false ]]; then return 0; fi ;;
      response)
        if [[ "${EVENT[2]}" == prompt && "${EVENT[3]}" == false ]]; then return 1; fi ;;
    esac
  done
  echo "$(basename "$0"): the daemon stopped before the run ended" >&2
  return 1
}

# agentd_stop: closes the daemon's stdin (it aborts anything left and exits) and waits for it.
agentd_stop() {
  exec 3>&-
  cat <&4 >/dev/null # drain, so the daemon never blocks on a full pipe while exiting
  exec 4<&-
  wait "$AGENTD_PID"
}
