#!/usr/bin/env bash
# retry-demo.sh [daemon args…] — the retry lifecycle without a real provider: the embedded faux
# model is told to fail the first attempt with a scripted 529 (overloaded) and to answer the next
# one; the script prints the retry events as they come. The first retry waits retry.baseDelayMs
# (2 s by default; see settings.json in README.md).
source "$(dirname "$0")/lib.sh"

open_line=false
end_line() {
  if $open_line; then echo; open_line=false; fi
}

on_event() {
  case "$1" in
    text)
      printf '%b' "${2-}"
      open_line=true ;;
    reply_end)
      end_line
      if [[ "$2" == error ]]; then printf 'attempt failed: %b\n' "${3-}"; fi ;;
    agent_end)
      echo "agent_end (willRetry: $2)" ;;
    retry_start)
      printf 'auto_retry_start: attempt %s of %s in %s ms\n' "$2" "$3" "$4" ;;
    retry_end)
      end_line
      if [[ "$2" == true ]]; then
        echo "auto_retry_end: success on attempt $3"
      else
        printf 'auto_retry_end: failed after %s attempts: %b\n' "$3" "${4-}"
      fi ;;
  esac
}

# The faux model, whatever credentials are configured: the script below is for it.
agentd_start --no-session --model faux/faux-1 "$@"
# One command per line: jq -c compacts the readable version below.
agentd_send "$(jq -c . <<'JSON'
{"type": "faux_enqueue", "id": "script", "steps": [
  {"error": "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
   "status": 529},
  {"text": "Recovered after one retry."}
]}
JSON
)"
echo "> prompt: Tell me something"
agentd_send '{"type":"prompt","id":"demo","message":"Tell me something"}'
agentd_follow_run on_event || true
end_line
agentd_stop
