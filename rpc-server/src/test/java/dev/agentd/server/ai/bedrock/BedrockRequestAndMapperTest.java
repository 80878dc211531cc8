package dev.agentd.server.ai.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.StreamMapper;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Converse body's edge cases and the mapper's endings, without a server. */
class BedrockRequestAndMapperTest {
    static Model model(String id, boolean reasoning) {
        return new Model(id, id, BedrockProvider.API, "amazon-bedrock", "", reasoning, List.of("text", "image"),
                Model.Cost.FREE, 128_000, 8192);
    }

    static JsonNode body(Model model, List<AgentMessage> messages, ThinkingLevel level) {
        return BedrockRequest.build(new StreamRequest(model, null, messages, List.of(), level, null, Map.of(), "s"));
    }

    @Test
    void imagesAreBase64BlobsBlankTextIsDroppedAndANonClaudeModelGetsNoThinkingFields() {
        AgentMessage.User user = new AgentMessage.User(List.of(new ContentBlock.Text("  "),
                new ContentBlock.Image("iVBORw0KGgo=", "image/png")), 1);
        JsonNode body = body(model("amazon.nova-pro-v1:0", true), List.of(user), ThinkingLevel.HIGH);
        assertEquals("[{\"role\":\"user\",\"content\":[{\"image\":{\"format\":\"png\",\"source\":"
                + "{\"bytes\":\"iVBORw0KGgo=\"}}}]}]", body.path("messages").toString());
        assertFalse(body.has("system"));
        assertFalse(body.has("toolConfig"));
        assertFalse(body.has("additionalModelRequestFields"));
        assertEquals(8192, body.path("inferenceConfig").path("maxTokens").asInt());
    }

    @Test
    void anEmptyToolResultGetsAPlaceholderAndToolIdsAreNormalized() {
        Model claude = model("anthropic.claude-3-7-sonnet", false);
        AgentMessage.Assistant call = new AgentMessage.Assistant(List.of(new ContentBlock.ToolCall("call_1|fc_2", "read",
                null, null)), BedrockProvider.API, "amazon-bedrock", claude.id(), null, StopReason.TOOL_USE, null, 2);
        JsonNode body = body(claude, List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1), call,
                new AgentMessage.ToolResult("call_1|fc_2", "read", List.of(), null, true, 3)), ThinkingLevel.OFF);
        assertEquals("{\"toolResult\":{\"toolUseId\":\"call_1_fc_2\",\"content\":[{\"text\":\"(empty)\"}],"
                + "\"status\":\"error\"}}", body.path("messages").get(2).path("content").get(0).toString());
        assertEquals("call_1_fc_2", BedrockRequest.toolId("call_1|fc_2"));
        assertEquals("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fus.x/converse-stream",
                BedrockProvider.path("arn:aws:bedrock:us-east-1:1:inference-profile/us.x"));
    }

    static AgentMessage.Assistant run(List<SseEvent> events) {
        AssistantMessageBuilder reply = new AssistantMessageBuilder(model("anthropic.claude", true), 0,
                new RecordingListener());
        BedrockStreamMapper mapper = new BedrockStreamMapper(reply, model("anthropic.claude", true),
                Redactor.of(null, List.of()));
        for (SseEvent event : events) {
            if (!mapper.onEvent(event)) {
                break;
            }
        }
        StreamMapper.Outcome outcome = mapper.outcome();
        return outcome instanceof StreamMapper.Outcome.Failed failed ? reply.fail(failed.error())
                : reply.finish(((StreamMapper.Outcome.Done) outcome).stopReason());
    }

    static SseEvent event(String name, String json) {
        return new SseEvent(name, json, "event");
    }

    @Test
    void aGuardrailStopIsARefusalAndAnUnknownStopIsAnErrorNamingIt() {
        AgentMessage.Assistant refused = run(List.of(event("messageStop", "{\"stopReason\":\"guardrail_intervened\"}"),
                event("metadata", "{\"usage\":{}}")));
        assertEquals(ErrorTypes.REFUSAL, refused.errorType(), refused.errorMessage());
        AgentMessage.Assistant odd = run(List.of(event("messageStop", "{\"stopReason\":\"new_reason\"}")));
        assertEquals(StopReason.ERROR, odd.stopReason());
        assertTrue(odd.errorMessage().contains("new_reason"), odd.errorMessage());
        AgentMessage.Assistant length = run(List.of(event("messageStop", "{\"stopReason\":\"max_tokens\"}")));
        assertEquals(StopReason.LENGTH, length.stopReason());
    }

    @Test
    void anErrorFrameAndAnUnknownExceptionFailWithTheirNames() {
        AgentMessage.Assistant error = run(List.of(new SseEvent("InternalFailure", "{\"message\":\"boom\"}", "error")));
        assertEquals(StopReason.ERROR, error.stopReason());
        assertTrue(error.errorMessage().contains("InternalFailure"), error.errorMessage());
        AgentMessage.Assistant denied = run(List.of(new SseEvent("accessDeniedException", "{\"message\":\"no\"}",
                "exception")));
        assertEquals(403, denied.errorStatus());
    }
}
