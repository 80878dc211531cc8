#!/usr/bin/env python3
"""A minimal agentd client in Python (standard library only).

    python3 examples/python/agentd_client.py "What is agentd?" [daemon args...]

Spawns the daemon (bin/agentd of this repository, or the command in $AGENTD_CMD, split like a
shell would), sends one prompt, prints the answer's text deltas as they stream and returns once
the prompt's run is over, retries included. Exit status 1 when the answer failed in the end.
"""

import json
import os
import shlex
import subprocess
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class AgentdClient:
    """One daemon process: send() commands, events() yields every record it writes."""

    def __init__(self, args=()):
        command = shlex.split(os.environ.get("AGENTD_CMD", "")) or [os.path.join(REPO_ROOT, "bin", "agentd")]
        # Binary pipes: records are UTF-8 and end at b"\n" only. Text mode's universal newlines
        # would also end lines at "\r", and str.splitlines() at U+2028, which the daemon writes
        # unescaped inside JSON strings.
        self.proc = subprocess.Popen(command + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, command):
        self.proc.stdin.write(json.dumps(command).encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def events(self):
        for raw in self.proc.stdout:  # bytes lines, split on b"\n" only
            line = raw.rstrip(b"\n").rstrip(b"\r")
            if line:
                yield json.loads(line.decode("utf-8"))

    def close(self):
        """EOF on stdin: the daemon aborts whatever is left and exits."""
        self.proc.stdin.close()
        for _ in self.proc.stdout:  # drain so it never blocks writing while it shuts down
            pass
        return self.proc.wait()


def ask(client, question, out=sys.stdout, err=sys.stderr):
    """Sends a prompt and streams its answer; returns the final error message, or None on success."""
    client.send({"type": "prompt", "id": "ask", "message": question})
    retrying = False  # between auto_retry_start and auto_retry_end
    last_error = None
    for event in client.events():
        kind = event.get("type")
        if kind == "message_update" and event["assistantMessageEvent"]["type"] == "text_delta":
            out.write(event["assistantMessageEvent"]["delta"])
            out.flush()
        elif kind == "message_end" and event["message"].get("role") == "assistant":
            failed = event["message"].get("stopReason") in ("error", "aborted")
            last_error = (event["message"].get("errorMessage") or "aborted") if failed else None
        elif kind == "auto_retry_start":
            retrying = True
            err.write("\n[retrying %d/%d in %d ms: %s]\n" % (
                event["attempt"], event["maxAttempts"], event["delayMs"], event["errorMessage"]))
        elif kind == "auto_retry_end":
            retrying = False
            if not event["success"]:  # retries exhausted or cancelled: the run is over
                return event.get("finalError") or last_error
        elif kind == "agent_end":
            # willRetry: another run follows (a retry). Without it the run is over, unless a retry
            # chain is still open: its auto_retry_end comes next and ends the run.
            if not event.get("willRetry") and not retrying:
                return last_error
        elif kind == "response" and event.get("id") == "ask" and not event["success"]:
            return event["error"]  # refused, or failed before running
    return "the daemon exited before the answer ended"


def main(argv):
    if len(argv) < 2:
        print('usage: agentd_client.py "question" [daemon args...]', file=sys.stderr)
        return 2
    client = AgentdClient(["--no-session"] + argv[2:])
    try:
        error = ask(client, argv[1])
        print()
    finally:
        client.close()
    if error:
        print("error: " + error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
