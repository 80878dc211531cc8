#!/usr/bin/env bash
# ask.sh "question" [daemon args…] — sends one prompt and prints the answer's text as it streams.
# Retries are announced on stderr; the exit status is 1 when the answer failed in the end.
#
#   examples/shell/ask.sh "What is agentd?"
#   examples/shell/ask.sh "Hi" --model faux/faux-2
source "$(dirname "$0")/lib.sh"

question="${1:?usage: ask.sh \"question\" [daemon args...]}"
shift

last_reply="" last_error="" open_line=false

on_event() {
  case "$1" in
    text)
      printf '%b' "${2-}"
      open_line=true ;;
    reply_end)
      last_reply="$2" last_error="${3-}" ;;
    retry_start)
      if $open_line; then echo; open_line=false; fi
      printf '[retrying %s/%s in %s ms: %b]\n' "$2" "$3" "$4" "${5-}" >&2 ;;
    response)
      if [[ "$3" == prompt && "$4" == false ]]; then last_reply=error last_error="${5-}"; fi ;;
  esac
}

agentd_start --no-session "$@"
# jq builds the command so any question is valid JSON.
agentd_send "$(jq -nc --arg message "$question" '{type: "prompt", id: "ask", message: $message}')"
agentd_follow_run on_event || true
if $open_line; then echo; fi
agentd_stop

if [[ "$last_reply" == error || "$last_reply" == aborted ]]; then
  printf 'error: %b\n' "$last_error" >&2
  exit 1
fi
