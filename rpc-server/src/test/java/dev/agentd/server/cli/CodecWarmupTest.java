package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The start-up warm-up builds the first exchange's serializers, and can never fail start-up. */
class CodecWarmupTest {

    @Test
    void buildsTheSerializersOfReadyAndTheFirstAnswerAhead() throws IOException {
        ObjectMapper fresh = Json.mapper().copy(); // caches of its own, still empty
        assertEquals(0, cached(fresh));
        CodecWarmup.run(fresh);
        int warmed = cached(fresh);
        assertTrue(warmed >= 3, warmed + " serializers cached (ready, response, session state at least)");

        AgentEvent ready = new AgentEvent.Ready("1", "rpc", FauxModels.FAUX_1);
        assertEquals(Json.mapper().copy().writeValueAsString(ready), fresh.writeValueAsString(ready),
                "what is written does not change");
    }

    private static int cached(ObjectMapper mapper) {
        return ((DefaultSerializerProvider) mapper.getSerializerProvider()).cachedSerializersCount();
    }

    @Test
    void aFailingWarmUpIsSwallowed() {
        SimpleModule broken = new SimpleModule("broken");
        broken.addSerializer(AgentEvent.Ready.class, new JsonSerializer<>() {
            @Override
            public void serialize(AgentEvent.Ready value, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                throw new IOException("cannot write");
            }
        });
        CodecWarmup.run(Json.mapper().copy().registerModule(broken)); // returns: start-up goes on
    }
}
