package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Response;

/**
 * How requests are written and incoming records are read for one {@link Dialect}. Everything above
 * it works with {@link Command}, {@link Response} and {@link AgentEvent} only.
 */
interface WireDialect {

    /** The record to write for {@code command} with request id {@code id}. */
    JsonNode encode(String id, Command command);

    /** Classifies one parsed incoming record. Never throws. */
    Inbound decode(JsonNode record);

    /** One incoming record, classified. */
    sealed interface Inbound {
        /**
         * An answer to a request. {@code response.command()} may be null when the dialect does not
         * carry it (JSON-RPC); the pending request fills it in.
         */
        record Reply(Response response) implements Inbound {}

        /** An event; {@code problem} is non-null when a known type had to be kept as Unknown. */
        record Event(AgentEvent event, String problem) implements Inbound {}

        /** Not a record of this dialect; ignored and reported. */
        record Invalid(String problem) implements Inbound {}
    }
}
