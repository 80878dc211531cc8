package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Routes what the reader thread reads: a response with a pending id completes that request;
 * anything else is an event (run tracking first, then listeners) or a stray response (parse
 * errors, answers after their caller gave up) for the response listeners. Garbage is reported, never thrown.
 */
final class Dispatcher implements Transport.Sink {
    private final WireDialect dialect;
    private final PendingRequests pending;
    private final RunTracker tracker;
    private final Listeners<AgentEvent> events;
    private final Listeners<Response> strayResponses;
    private final Consumer<String> protocolErrors;

    Dispatcher(WireDialect dialect, PendingRequests pending, RunTracker tracker, Listeners<AgentEvent> events,
            Listeners<Response> strayResponses, Consumer<String> protocolErrors) {
        this.dialect = dialect;
        this.pending = pending;
        this.tracker = tracker;
        this.events = events;
        this.strayResponses = strayResponses;
        this.protocolErrors = protocolErrors;
    }

    @Override
    public void onLine(byte[] line) {
        try {
            route(line);
        } catch (RuntimeException e) { // a bug here must not stop the reader thread
            Listeners.report(protocolErrors, "Failed to handle a record from the daemon (" + e + "): " + preview(line));
        }
    }

    private void route(byte[] line) {
        JsonNode record;
        try {
            record = JsonTrees.readDaemonOutput(line); // a long session's get_tree nests deeper than commands may
        } catch (IOException e) {
            Listeners.report(protocolErrors, "Ignored a non-JSON line from the daemon: " + preview(line));
            return;
        }
        WireDialect.Inbound inbound = dialect.decode(record);
        if (inbound instanceof WireDialect.Inbound.Reply reply) {
            onResponse(reply.response());
        } else if (inbound instanceof WireDialect.Inbound.Event event) {
            if (event.problem() != null) {
                Listeners.report(protocolErrors, event.problem());
            }
            tracker.onEvent(event.event());
            try {
                events.dispatch(event.event());
            } finally {
                tracker.delivered();
            }
        } else if (inbound instanceof WireDialect.Inbound.Invalid invalid) {
            Listeners.report(protocolErrors, "Ignored a record from the daemon (" + invalid.problem() + "): "
                    + preview(line));
        } else {
            throw new IllegalStateException("unhandled inbound record: " + inbound);
        }
    }

    private void onResponse(Response response) {
        PendingRequests.Claimed claimed = pending.claim(response);
        Response named = claimed == null ? response : claimed.response();
        boolean startsRun = "prompt".equals(named.command()) || "retry".equals(named.command());
        if (named.id() != null && startsRun && !named.success()) {
            // A prompt's one answer (SPEC §3.3) says it failed: no run will follow. Settled
            // before anyone waiting on the response or the run is released.
            tracker.promptSettled(named.id());
        }
        String disposition = disposition(named);
        if (disposition != null) { // before the caller is released: its wait needs to know
            tracker.answered(startsRun ? named.id() : null, disposition);
        }
        if (claimed != null) {
            claimed.future().complete(named);
        } else {
            strayResponses.dispatch(named);
        }
    }

    /** pi 1.x's {@code data.disposition} of a successful prompt, steer or follow_up answer; null before. */
    private static String disposition(Response response) {
        JsonNode value = response.success() && response.data() != null ? response.data().get("disposition") : null;
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    @Override
    public void onOversizedLine(long length) {
        Listeners.report(protocolErrors, "Ignored a line of " + length + " bytes from the daemon (over the limit)");
    }

    @Override
    public void onEnd(RpcException reason) {
        pending.close(reason);
        tracker.fail(reason);
    }

    private static String preview(byte[] line) {
        String text = new String(line, 0, Math.min(line.length, 200), StandardCharsets.UTF_8);
        return line.length > 200 ? text + "…" : text;
    }
}
