package dev.agentd.server.ai.anthropic;

import static dev.agentd.server.testing.http.AnthropicWire.chunks;
import static dev.agentd.server.testing.http.AnthropicWire.event;
import static dev.agentd.server.testing.http.AnthropicWire.messageDelta;
import static dev.agentd.server.testing.http.AnthropicWire.messageStart;
import static dev.agentd.server.testing.http.AnthropicWire.messageStop;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A classifier refusal as the Messages stream sends it: {@code message_delta} with
 * {@code stop_reason:"refusal"} and {@code stop_details {type, category, explanation}}. The reply
 * fails typed {@code refusal}, its message names the category and the explanation, and the
 * refusal class carries the category.
 */
class AnthropicRefusalCategoryTest {
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

    private AgentMessage.Assistant send() {
        Model model = new Model("claude-fable-5", "Claude", "anthropic-messages", "anthropic", server.baseUrl(), true,
                List.of("text"), Model.Cost.FREE, 200_000, 64_000);
        return provider.stream(new StreamRequest(model, "sys", List.of(new AgentMessage.User(
                List.of(new ContentBlock.Text("hi")), 1)), List.of(), ThinkingLevel.OFF, "sk-ant-test-key-0123456789",
                Map.of(), "s"), new RecordingListener(), CancellationToken.none());
    }

    private static String refusalDelta(String category, String explanation) {
        ObjectNode data = Json.mapper().createObjectNode().put("type", "message_delta");
        ObjectNode delta = data.putObject("delta").put("stop_reason", "refusal").putNull("stop_sequence");
        ObjectNode details = delta.putObject("stop_details").put("type", "refusal");
        if (category == null) {
            details.putNull("category");
        } else {
            details.put("category", category);
        }
        details.put("explanation", explanation);
        data.putObject("usage").put("output_tokens", 0);
        return event("message_delta", data);
    }

    @Test
    void theCategoryAndExplanationReachTheMessageAndTheRefusalClass() {
        server.enqueue(sse(chunks(messageStart(412, 0, 0),
                refusalDelta("cyber", "This request was declined because it could enable cyber harm."),
                messageStop())));
        AgentMessage.Assistant reply = send();

        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals(ErrorTypes.REFUSAL, reply.errorType());
        assertEquals("The model refused to answer (stop_reason: refusal, category: cyber): This request was "
                + "declined because it could enable cyber harm.", reply.errorMessage());
        Classification classification = ErrorClassifier.classify(reply, 200_000);
        assertEquals(ErrorClass.REFUSAL, classification.errorClass());
        assertEquals("cyber", classification.refusalCategory());
    }

    @Test
    void aRefusalWithoutANamedCategoryKeepsTheOldMessage() {
        server.enqueue(sse(chunks(messageStart(1, 0, 0), refusalDelta(null, ""), messageStop())));
        AgentMessage.Assistant reply = send();
        assertEquals("The model refused to answer (stop_reason: refusal)", reply.errorMessage());
        assertNull(ErrorClassifier.classify(reply, 200_000).refusalCategory());
    }

    @Test
    void aCategoryThatIsNotAPlainTokenIsDroppedNotEchoed() {
        server.enqueue(sse(chunks(messageStart(1, 0, 0), refusalDelta("x), category: bio", "no"), messageStop())));
        AgentMessage.Assistant reply = send();
        assertEquals("The model refused to answer (stop_reason: refusal): no", reply.errorMessage());
        assertNull(ErrorClassifier.classify(reply, 200_000).refusalCategory());
    }

    @Test
    void aNormalStopHasNoRefusalCategory() {
        server.enqueue(sse(chunks(messageStart(1, 0, 0), messageDelta("end_turn", 1), messageStop())));
        assertNull(ErrorClassifier.classify(send(), 200_000).refusalCategory());
    }
}
