package dev.agentd.server.ai.openai;

import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static dev.agentd.server.testing.http.OpenAiWire.MODEL;
import static dev.agentd.server.testing.http.OpenAiWire.done;
import static dev.agentd.server.testing.http.OpenAiWire.finish;
import static dev.agentd.server.testing.http.OpenAiWire.role;
import static dev.agentd.server.testing.http.OpenAiWire.textReply;
import static dev.agentd.server.testing.http.OpenAiWire.toolCallArgs;
import static dev.agentd.server.testing.http.OpenAiWire.toolCallStart;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** pi 1.x over chat completions: toolcall_start names its call; a chunk's model becomes responseModel. */
class OpenAiPiOneFieldsTest {
    FakeProviderServer server;
    SystemScheduler scheduler;
    Provider provider;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> new ProviderTimeouts(5_000, 5_000, 5_000)).get(1);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    private AgentMessage.Assistant send(String modelId, RecordingListener listener) {
        Model model = new Model(modelId, modelId, "openai-completions", "openai", server.baseUrl() + "/v1", false,
                List.of("text"), Model.Cost.FREE, 128_000, 16_000);
        return provider.stream(new StreamRequest(model, "sys", List.of(new AgentMessage.User(
                List.of(new ContentBlock.Text("hi")), 1)), List.of(), ThinkingLevel.OFF, "sk-proj-test-key-0123456789",
                Map.of(), "s"), listener, CancellationToken.none());
    }

    @Test
    void toolcallStartCarriesTheCallsIdAndNameAndAnotherAnsweringModelIsTheResponseModel() {
        server.enqueue(sse(List.of(role(), toolCallStart(0, "call_Z", "grep"), toolCallArgs(0, "{}"),
                finish("tool_calls"), done())));
        RecordingListener listener = new RecordingListener(true);
        AgentMessage.Assistant reply = send("gpt-4o-mini", listener);

        AssistantMessageEvent start = listener.events().get(0);
        assertEquals("toolcall_start", start.type());
        assertEquals("call_Z", start.id());
        assertEquals("grep", start.toolName());
        assertEquals(MODEL, reply.responseModel());
        assertEquals("gpt-4o-mini", reply.model());
    }

    @Test
    void theRequestedModelAnsweringLeavesResponseModelAbsent() {
        server.enqueue(sse(textReply("ok")));
        assertNull(send(MODEL, new RecordingListener()).responseModel());
    }
}
