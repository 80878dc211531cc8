package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
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
        AtomicBoolean failed = new AtomicBoolean();
        SimpleModule broken = new SimpleModule("broken");
        broken.addSerializer(AgentEvent.MessageUpdate.class, new JsonSerializer<>() {
            @Override
            public void serialize(AgentEvent.MessageUpdate value, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                failed.set(true);
                throw new IOException("cannot write");
            }
        });
        ObjectMapper mapper = Json.mapper().copy().registerModule(broken);
        // Returns, without throwing and without hanging: start-up goes on.
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> CodecWarmup.run(mapper));
        assertTrue(failed.get(), "the warm-up reached the failing serializer");
    }
}
