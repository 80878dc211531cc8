package dev.agentd.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.faux.FauxModels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Builds the {@link ObjectMapper} and the (de)serializers of a first prompt (its command, a
 * reply's {@code message_update}) on a thread of its own, started once {@code ready} is queued
 * (issue 18). Building the mapper is the largest single cost of a cold JVM's first exchange; the
 * first {@code get_state} answer does not need it ({@code JsonTrees}, {@code WireTrees}), so it is
 * left to this thread rather than made to compete with the main thread for two cores before
 * {@code ready}. Jackson builds serializers by introspection the first time a type is seen; its
 * caches are shared and thread-safe, so the first real prompt finds them ready. A thread needing
 * the mapper earlier waits for it (class initialisation is one-time and locked by the JVM), so
 * nothing here changes what is written; a failure only loses the head start.
 * {@code -Dagentd.codecWarmup=false} leaves the mapper to its first use (start-up measurements,
 * {@code FirstAnswerIT}).
 */
final class CodecWarmup {
    private CodecWarmup() {}

    /** Starts the warm-up on a daemon thread of its own and returns at once (unless switched off). */
    static void start() {
        if (!Boolean.parseBoolean(System.getProperty("agentd.codecWarmup", "true"))) {
            return;
        }
        Thread warmup = new Thread(CodecWarmup::run, "agentd-codec-warmup");
        warmup.setDaemon(true);
        warmup.start();
    }

    static void run() {
        run(Json.mapper());
    }

    /** Warms {@code mapper}'s caches (command decoding always goes through {@link Json}'s). */
    static void run(ObjectMapper mapper) {
        try {
            CommandCodec.decode(mapper.readTree("{\"type\":\"prompt\",\"id\":\"warmup\",\"message\":\"w\"}"
                    .getBytes(StandardCharsets.UTF_8)));
            // A reply's first updates: a cold writer is behind, and would merge the first deltas.
            AgentMessage.Assistant partial = new AgentMessage.Assistant(List.of(new ContentBlock.Text("w", null)),
                    FauxModels.API, "warmup", "warmup", Usage.ZERO, StopReason.STOP, null, 0L);
            mapper.writeValueAsBytes(new AgentEvent.MessageUpdate(partial,
                    new AssistantMessageEvent("text_delta", 0, "w", null, null, partial)));
        } catch (Exception | LinkageError e) {
            LoggerFactory.getLogger(CodecWarmup.class).debug("codec warm-up failed: {}", e.toString());
        }
    }
}
