#!/usr/bin/env bash
# state.sh [daemon args…] — prints the session state (the get_state response's data) and exits.
#
#   examples/shell/state.sh --model faux/faux-2
source "$(dirname "$0")/lib.sh"

agentd_start --no-session "$@"
agentd_send '{"type":"get_state","id":"state"}'
# Responses carry the request's id: skip everything until ours.
while agentd_next; do
  if [[ "${EVENT[0]}" == response && "${EVENT[1]}" == state ]]; then
    if [[ "${EVENT[3]}" == true ]]; then
      printf '%b\n' "${EVENT[4]}" | jq .
    else
      printf 'get_state failed: %b\n' "${EVENT[4]}" >&2
    fi
    break
  fi
done
agentd_stop
