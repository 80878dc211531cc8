package dev.agentd.server.ai.anthropic;

import static dev.agentd.server.testing.http.AnthropicWire.MODEL;
import static dev.agentd.server.testing.http.AnthropicWire.chunks;
import static dev.agentd.server.testing.http.AnthropicWire.messageDelta;
import static dev.agentd.server.testing.http.AnthropicWire.messageStart;
import static dev.agentd.server.testing.http.AnthropicWire.messageStop;
import static dev.agentd.server.testing.http.AnthropicWire.textBlock;
import static dev.agentd.server.testing.http.AnthropicWire.toolUseBlock;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
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

/** pi 1.x over the Messages stream: toolcall_start names its call; message.model becomes responseModel. */
class AnthropicPiOneFieldsTest {
    FakeProviderServer server;
    SystemScheduler scheduler;
    Provider provider;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> new ProviderTimeouts(5_000, 5_000, 5_000)).get(0);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    private AgentMessage.Assistant send(String modelId, RecordingListener listener) {
        Model model = new Model(modelId, "Claude", "anthropic-messages", "anthropic", server.baseUrl(), true,
                List.of("text"), Model.Cost.FREE, 200_000, 64_000);
        return provider.stream(new StreamRequest(model, "sys", List.of(new AgentMessage.User(
                List.of(new ContentBlock.Text("hi")), 1)), List.of(), ThinkingLevel.OFF, "sk-ant-test-key-0123456789",
                Map.of(), "s"), listener, CancellationToken.none());
    }

    @Test
    void toolcallStartCarriesTheCallsIdAndNameAndAnotherAnsweringModelIsTheResponseModel() {
        server.enqueue(sse(chunks(messageStart(1, 0, 0), textBlock(0, "ok"),
                toolUseBlock(1, "toolu_9", "bash", "{\"command\":\"ls\"}"), messageDelta("tool_use", 2), messageStop())));
        RecordingListener listener = new RecordingListener();
        AgentMessage.Assistant reply = send("claude-alias", listener);

        AssistantMessageEvent start = listener.events().stream().filter(e -> e.type().equals("toolcall_start"))
                .findFirst().orElseThrow();
        assertEquals("toolu_9", start.id());
        assertEquals("bash", start.toolName());
        assertEquals(1, start.contentIndex());
        assertEquals(MODEL, reply.responseModel());
        assertEquals("claude-alias", reply.model());
    }

    @Test
    void theRequestedModelAnsweringLeavesResponseModelAbsent() {
        server.enqueue(sse(chunks(messageStart(1, 0, 0), textBlock(0, "ok"), messageDelta("end_turn", 2),
                messageStop())));
        assertNull(send(MODEL, new RecordingListener()).responseModel());
    }
}
