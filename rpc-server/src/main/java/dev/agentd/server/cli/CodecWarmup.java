package dev.agentd.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.server.ai.faux.FauxModels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Start-up on the second core (issue 18): builds the {@link ObjectMapper} and the serializers and
 * deserializers of the first exchange ({@code ready}, a command line, a {@code get_state} answer,
 * a reply's {@code message_update})
 * while the main thread reads the configuration and wires the daemon. Jackson builds them by
 * introspection the first time a type is seen (tens of ms, measured with {@code -Xlog:class+load});
 * its caches are shared and thread-safe, so the real first exchange finds them ready. The main
 * thread's first use of {@link Json} waits for the mapper (class initialisation is one-time and
 * locked by the JVM), so nothing here changes what is written; a failure only loses the head start.
 */
final class CodecWarmup {
    private CodecWarmup() {}

    /** Starts the warm-up on a daemon thread of its own and returns at once. */
    static void start() {
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
            CommandCodec.decode(mapper.readTree("{\"type\":\"get_state\",\"id\":\"warmup\"}"
                    .getBytes(StandardCharsets.UTF_8)));
            mapper.writeValueAsBytes(new AgentEvent.Ready("warmup", "rpc", FauxModels.FAUX_1));
            SessionState state = new SessionState(FauxModels.FAUX_1, ThinkingLevel.OFF, false, false,
                    QueueMode.ONE_AT_A_TIME, QueueMode.ONE_AT_A_TIME, null, "warmup", null, true, 0, 0, true, false, 0);
            mapper.writeValueAsBytes(Response.ok("warmup", "get_state", mapper.valueToTree(state)));
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
