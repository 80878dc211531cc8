package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.Completion.completion;
import static org.mockserver.model.HttpLlmResponse.llmResponse;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.BedrockWire;
import dev.agentd.server.testing.mock.MockLlm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.model.HttpRequest;
import org.mockserver.model.LlmChaosProfile;
import org.mockserver.model.Provider;

/**
 * Issue 25's chains, end to end through the jar against MockServer: an {@code anthropic-messages}
 * primary that stays overloaded falls over to an {@code openai-responses} rung (MockServer's own
 * encoders); and the same model on another host — {@code anthropic/claude-sonnet-4-5} with the
 * bare {@code claude-sonnet-4-5} as its chain falls over to the built-in catalog's Bedrock variant
 * (its global inference profile), signed with SigV4. Each switch is announced with
 * {@code retry_fallback_applied} and the run settles once.
 */
class CrossApiFallbackIT {
    private static final String KEY = "sk-cross-api-0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void anOverloadedAnthropicPrimaryFallsOverToAnOpenAiResponsesRung() throws Exception {
        try (MockLlm mock = MockLlm.start()) {
            HttpRequest messages = request().withMethod("POST").withPath("/v1/messages");
            HttpRequest responses = request().withMethod("POST").withPath("/responses");
            mock.server().when(messages).respondWithLlm(llmResponse().withProvider(Provider.ANTHROPIC)
                    .withCompletion(completion().withText("never").streaming())
                    .withChaos(LlmChaosProfile.llmChaosProfile().withErrorKind("OVERLOAD")));
            mock.server().when(responses).respondWithLlm(llmResponse().withProvider(Provider.OPENAI_RESPONSES)
                    .withCompletion(completion().withText("The Responses rung answers.").streaming()));
            Path agentDir = Files.createDirectories(dir.resolve("agent"));
            Files.writeString(agentDir.resolve("models.json"), """
                    {"providers":{
                      "primary":{"baseUrl":"%1$s","api":"anthropic-messages","apiKey":"%2$s",
                        "models":[{"id":"claude-x","contextWindow":200000,"maxTokens":8192}]},
                      "backup":{"baseUrl":"%1$s","api":"openai-responses","apiKey":"%2$s",
                        "models":[{"id":"gpt-x","contextWindow":200000,"maxTokens":8192}]}}}
                    """.formatted(mock.baseUrl(), KEY));
            Files.writeString(agentDir.resolve("settings.json"), """
                    {"retry":{"baseDelayMs":20,"maxRetries":1,
                      "fallbackChains":{"primary/claude-x":["backup/gpt-x"]}}}
                    """);
            try (DaemonProcess daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--model",
                    "primary/claude-x")) {
                daemon.awaitNth("ready", 1);
                assertTrue(daemon.request(command("prompt", "p1", "message", "hello")).path("success").asBoolean());
                JsonNode settled = daemon.awaitNth("agent_settled", 1);
                assertFalse(settled.path("aborted").asBoolean());

                JsonNode applied = daemon.awaitNth("retry_fallback_applied", 1);
                assertTrue(applied.path("from").asText().contains("claude-x"), applied.toString());
                assertTrue(applied.path("to").asText().contains("gpt-x"), applied.toString());
                assertEquals("primary/claude-x", applied.path("chainKey").asText(), applied.toString());
                List<String> replies = daemon.records().stream()
                        .filter(node -> "message_end".equals(node.path("type").asText())
                                && "assistant".equals(node.path("message").path("role").asText()))
                        .map(node -> node.path("message").path("api").asText() + ":"
                                + node.path("message").path("stopReason").asText())
                        .toList();
                assertEquals(List.of("anthropic-messages:error", "anthropic-messages:error",
                        "openai-responses:stop"), replies, "1 + maxRetries on the primary, then the rung");
                JsonNode text = daemon.request(command("get_last_assistant_text", "t"));
                assertEquals("The Responses rung answers.", text.path("data").path("text").asText());
                assertEquals(2, mock.server().retrieveRecordedRequests(messages).length);
                assertEquals(1, mock.server().retrieveRecordedRequests(responses).length);
                assertFalse(daemon.stderr().contains(KEY), "the key never reaches stderr");
            }
        }
    }

    @Test
    void theSameClaudeOnBedrockServesWhenTheAnthropicApiIsOverloaded() throws Exception {
        String bedrockId = "global.anthropic.claude-sonnet-4-5-20250929-v1:0";
        try (MockLlm mock = MockLlm.start()) {
            HttpRequest messages = request().withMethod("POST").withPath("/v1/messages");
            HttpRequest converse = request().withMethod("POST")
                    .withPath("/model/global.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
            mock.server().when(messages).respondWithLlm(llmResponse().withProvider(Provider.ANTHROPIC)
                    .withCompletion(completion().withText("never").streaming())
                    .withChaos(LlmChaosProfile.llmChaosProfile().withErrorKind("OVERLOAD")));
            mock.server().when(converse).respond(response().withStatusCode(200)
                    .withHeader("content-type", "application/vnd.amazon.eventstream")
                    .withBody(BedrockWire.text("The same Claude, on Bedrock.", 9, 7)));
            Path agentDir = Files.createDirectories(dir.resolve("agent-bedrock"));
            // Entries without models move the built-in models of both providers to MockServer;
            // naming amazon-bedrock also configures it (its credential is ambient).
            Files.writeString(agentDir.resolve("models.json"), """
                    {"providers":{"anthropic":{"baseUrl":"%1$s","apiKey":"%2$s"},
                                  "amazon-bedrock":{"baseUrl":"%1$s"}}}
                    """.formatted(mock.baseUrl(), KEY));
            Files.writeString(agentDir.resolve("settings.json"), """
                    {"retry":{"baseDelayMs":20,"maxRetries":1,
                      "fallbackChains":{"anthropic/claude-sonnet-4-5":["claude-sonnet-4-5"]}}}
                    """);
            Map<String, String> aws = Map.of("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE",
                    "AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "AWS_REGION", "us-east-1",
                    "AWS_CONFIG_FILE", dir.resolve("no-aws-config").toString(),
                    "AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-aws-credentials").toString());
            try (DaemonProcess daemon = DaemonProcess.start(agentDir, dir, aws, "--no-session", "--model",
                    "anthropic/claude-sonnet-4-5")) {
                daemon.awaitNth("ready", 1);
                assertTrue(daemon.request(command("prompt", "p1", "message", "hello")).path("success").asBoolean());
                JsonNode settled = daemon.awaitNth("agent_settled", 1);
                assertFalse(settled.path("aborted").asBoolean());

                JsonNode applied = daemon.awaitNth("retry_fallback_applied", 1);
                assertTrue(applied.path("from").asText().contains("anthropic/claude-sonnet-4-5"), applied.toString());
                assertTrue(applied.path("to").asText().contains("amazon-bedrock/" + bedrockId), applied.toString());
                assertEquals("anthropic/claude-sonnet-4-5", applied.path("chainKey").asText(), applied.toString());
                JsonNode text = daemon.request(command("get_last_assistant_text", "t"));
                assertEquals("The same Claude, on Bedrock.", text.path("data").path("text").asText());
                assertEquals(2, mock.server().retrieveRecordedRequests(messages).length);
                org.mockserver.model.HttpRequest[] signed = mock.server().retrieveRecordedRequests(converse);
                assertEquals(1, signed.length);
                assertTrue(signed[0].getFirstHeader("authorization").startsWith(
                        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"), signed[0].getFirstHeader("authorization"));
                assertFalse(daemon.stderr().contains(KEY), "the key never reaches stderr");
            }
        }
    }
}
