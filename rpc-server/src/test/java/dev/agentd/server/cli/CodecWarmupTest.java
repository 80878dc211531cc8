package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.testing.Replies;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The warm-up after {@code ready} builds a first prompt's deserializers and serializers, and can never fail start-up. */
class CodecWarmupTest {

    @Test
    void buildsTheSerializersOfAFirstReplyAhead() throws IOException {
        ObjectMapper fresh = Json.mapper().copy(); // caches of its own, still empty
        assertEquals(0, cached(fresh));
        CodecWarmup.run(fresh);
        int warmed = cached(fresh);
        assertTrue(warmed >= 2, warmed + " serializers cached (message_update and its message at least)");

        AgentMessage.Assistant partial = Replies.reply().content(new ContentBlock.Text("hi", null))
                .from(FauxModels.API, "m", "faux").at(1L).build();
        AgentEvent update = new AgentEvent.MessageUpdate(partial,
                new AssistantMessageEvent("text_delta", 0, "hi", null, null, partial));
        assertEquals(Json.mapper().copy().writeValueAsString(update), fresh.writeValueAsString(update),
                "what is written does not change");
    }

    private static int cached(ObjectMapper mapper) {
        return ((DefaultSerializerProvider) mapper.getSerializerProvider()).cachedSerializersCount();
    }

    @Test
    void aFailingWarmUpIsSwallowed() {
        // The write itself fails (a serializer module is not enough: once other tests have run,
        // Jackson may answer from what it already knows and the module is never asked).
        AtomicBoolean failed = new AtomicBoolean();
        ObjectMapper broken = new ObjectMapper(Json.mapper()) {
            @Override
            public byte[] writeValueAsBytes(Object value) throws JsonProcessingException {
                failed.set(true);
                throw new JsonMappingException(null, "cannot write");
            }
        };
        // Returns, without throwing and without hanging: start-up goes on.
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> CodecWarmup.run(broken));
        assertTrue(failed.get(), "the warm-up reached the failing write");
    }
}
