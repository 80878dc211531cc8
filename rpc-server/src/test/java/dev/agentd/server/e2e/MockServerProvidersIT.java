package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.Completion.completion;
import static org.mockserver.model.HttpLlmResponse.llmResponse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.mock.MockProviderRig;
import dev.agentd.server.testing.mock.MockProviderRig.Api;
import dev.agentd.server.testing.mock.MockProviderRig.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.mockserver.model.Completion;
import org.mockserver.model.HttpLlmResponse;
import org.mockserver.model.LlmChaosProfile;
import org.mockserver.model.ToolUse;
import org.mockserver.model.Usage;

/**
 * Issue 25: today's two APIs against MockServer's own encoders and faults, through the real jar
 * with a models.json provider whose baseUrl is the MockServer. One daemon per API serves every
 * scenario (the mock's expectations are reset between them); retries wait 50 ms, or the server's
 * hint where the scenario is about the hint. No real-time budgets: only the rig's generous waits.
 */
class MockServerProvidersIT {
    // Each API's faults, retried whole: keeping a cut reply is KeepPartialIT's subject (MockServer's
    // canned retry is a whole reply, not the continuation a model would write after a prefill).
    private static final String SETTINGS = "{\"retry\":{\"baseDelayMs\":50,\"maxRetries\":2,\"keepPartial\":false}}";
    private static final String TEXT = "Hello there from the mock server.";

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AnthropicMessages extends Scenarios {
        AnthropicMessages() {
            super(Api.ANTHROPIC);
        }

        @Override
        boolean streamsUsage() {
            return true;
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class OpenAiCompletions extends Scenarios {
        OpenAiCompletions() {
            super(Api.OPENAI);
        }

        /** MockServer 7.6.0's chat codec sends no usage chunk, even for {@code stream_options.include_usage}. */
        @Override
        boolean streamsUsage() {
            return false;
        }
    }

    abstract static class Scenarios {
        private final Api api;
        private Path dir;
        MockProviderRig rig;
        private int prompts;

        Scenarios(Api api) {
            this.api = api;
        }

        abstract boolean streamsUsage();

        @BeforeAll
        void startDaemon() throws IOException {
            dir = Files.createTempDirectory("agentd-mockserver-");
            Files.writeString(dir.resolve("a.txt"), "the file says: marmalade\n");
            rig = MockProviderRig.start(dir, api, SETTINGS);
        }

        @AfterAll
        void stopDaemon() {
            if (rig != null) {
                rig.close();
            }
        }

        @BeforeEach
        void resetMock() {
            rig.reset();
        }

        private Run prompt(String text) throws IOException {
            return rig.prompt("p" + ++prompts, text);
        }

        private static Completion text() {
            return completion().withText(TEXT).streaming()
                    .withUsage(Usage.usage().withInputTokens(11).withOutputTokens(7));
        }

        private static HttpLlmResponse reply(Completion completion) {
            return llmResponse().withCompletion(completion);
        }

        private static HttpLlmResponse fault(LlmChaosProfile chaos) {
            return reply(text()).withChaos(chaos);
        }

        private static LlmChaosProfile chaos() {
            return LlmChaosProfile.llmChaosProfile();
        }

        private static void assertComplete(Run run) {
            assertEquals("stop", run.reply().path("stopReason").asText(), run.end().toString());
            assertEquals(TEXT, run.text());
        }

        /** Every assistant message_end of the run that failed, in order. */
        private static List<JsonNode> failedReplies(Run run) {
            return run.all("message_end").stream().map(node -> node.path("message"))
                    .filter(message -> "assistant".equals(message.path("role").asText()))
                    .filter(message -> "error".equals(message.path("stopReason").asText())).toList();
        }

        @Test
        void aStreamedTextReplyArrivesIntactWithUsageAndCost() throws IOException {
            rig.then(reply(text()));
            Run run = prompt("hi");
            assertComplete(run);
            assertTrue(run.all("auto_retry_start").isEmpty(), run.records().toString());
            JsonNode end = run.all("message_end").stream().map(node -> node.path("message"))
                    .filter(message -> "assistant".equals(message.path("role").asText())).findFirst().orElseThrow();
            assertEquals(TEXT, end.path("content").get(0).path("text").asText());
            JsonNode usage = end.path("usage");
            if (streamsUsage()) {
                assertEquals(11, usage.path("input").asInt(), usage.toString());
                assertEquals(7, usage.path("output").asInt(), usage.toString());
                assertEquals(18, usage.path("totalTokens").asInt(), usage.toString());
                double expected = (11 * 3 + 7 * 15) / 1_000_000.0;
                assertEquals(expected, usage.path("cost").path("total").asDouble(), 1e-12, usage.toString());
            } else {
                assertEquals(0, usage.path("totalTokens").asInt(), usage.toString());
                assertEquals(0.0, usage.path("cost").path("total").asDouble(), usage.toString());
            }
            JsonNode sent = rig.requests().get(0);
            assertEquals(MockProviderRig.MODEL_ID, sent.path("model").asText());
            assertTrue(sent.path("stream").asBoolean(), sent.toString());
        }

        @Test
        void aToolCallRoundTrip() throws IOException {
            rig.first(1, reply(completion().withToolCall(ToolUse.toolUse("read").withId("call_1")
                    .withArguments("{\"path\":\"a.txt\"}")).streaming())).then(reply(text()));
            Run run = prompt("read a.txt please");
            assertComplete(run);
            JsonNode tool = run.all("tool_execution_end").get(0);
            assertEquals("read", tool.path("toolName").asText(), tool.toString());
            assertFalse(tool.path("isError").asBoolean(), tool.toString());
            assertTrue(tool.toString().contains("marmalade"), tool.toString());
            List<JsonNode> sent = rig.requests();
            assertEquals(2, sent.size());
            assertTrue(sent.get(1).toString().contains("marmalade"), "the result goes back: " + sent.get(1));
        }

        @Test
        void a429RetryAfterIsTheWait() throws IOException {
            rig.first(1, fault(chaos().withErrorKind("RATE_LIMIT").withRetryAfter("1"))).then(reply(text()));
            Run run = prompt("hi");
            assertComplete(run);
            JsonNode start = run.all("auto_retry_start").get(0);
            Jittered.assertDelay(1000, start.path("delayMs").asLong(), start.toString());
            assertTrue(start.path("errorMessage").asText().startsWith("429 "), start.toString());
            assertTrue(run.all("auto_retry_end").get(0).path("success").asBoolean());
        }

        @Test
        void anOverloadIsRetriedThenSucceeds() throws IOException {
            rig.first(2, fault(chaos().withErrorKind("OVERLOAD"))).then(reply(text()));
            Run run = prompt("hi");
            assertComplete(run);
            List<JsonNode> starts = run.all("auto_retry_start");
            assertEquals(2, starts.size(), starts.toString());
            String status = api == Api.ANTHROPIC ? "529 " : "503 ";
            assertTrue(starts.get(0).path("errorMessage").asText().startsWith(status), starts.toString());
            assertEquals(3, rig.requests().size());
        }

        @Test
        void aServerErrorIsRetried() throws IOException {
            rig.first(1, fault(chaos().withErrorKind("SERVER_ERROR"))).then(reply(text()));
            Run run = prompt("hi");
            assertComplete(run);
            assertTrue(run.all("auto_retry_start").get(0).path("errorMessage").asText().startsWith("500 "));
        }

        @Test
        void aMidStreamTruncationIsRetriedNeverPresentedAsComplete() throws IOException {
            rig.first(1, fault(chaos().withTruncateMode(LlmChaosProfile.TruncateMode.MID_STREAM)))
                    .then(reply(text()));
            Run run = prompt("hi");
            assertComplete(run);
            List<JsonNode> failed = failedReplies(run);
            assertEquals(1, failed.size(), run.records().toString());
            assertFalse(TEXT.equals(failed.get(0).path("content").path(0).path("text").asText()));
            assertEquals(1, run.all("auto_retry_start").size());
            // the only complete reply is the retry's
            long stops = run.all("message_end").stream().filter(node -> "stop".equals(
                    node.path("message").path("stopReason").asText())).count();
            assertEquals(1, stops);
        }

        @Test
        void malformedSseIsAnErrorAndTheSessionStaysUsable() throws IOException {
            rig.then(fault(chaos().withTruncateMode(LlmChaosProfile.TruncateMode.MID_STREAM).withMalformedSse(true)));
            Run failed = prompt("hi");
            assertEquals("error", failed.reply().path("stopReason").asText(), failed.end().toString());
            String error = failed.reply().path("errorMessage").asText();
            assertTrue(error.startsWith("Malformed " + api.api() + " stream event: "), error);
            assertEquals(2, failed.all("auto_retry_start").size(), "retried as a broken stream");

            rig.reset();
            rig.then(reply(text()));
            assertComplete(prompt("again"));
        }

        @Test
        void malformedDataAfterTheTerminalEventIsNotRead() throws IOException {
            rig.then(fault(chaos().withMalformedSse(true)));
            Run run = prompt("hi");
            assertComplete(run);
            assertTrue(run.all("auto_retry_start").isEmpty(), run.records().toString());
        }

        /** Issue 25 item 7: MockServer's quota window says "quota exceeded" on a rate-limit type with Retry-After. */
        @Test
        void aQuotaWindow429WithRetryAfterIsWaitedOut() throws IOException {
            rig.then(fault(chaos().withQuotaName("rpm").withQuotaLimit(1).withQuotaWindowMillis(4000L)));
            assertComplete(prompt("one"));
            Run run = prompt("two");
            assertComplete(run);
            JsonNode start = run.all("auto_retry_start").get(0);
            assertTrue(start.path("errorMessage").asText().contains("quota exceeded"), start.toString());
            assertTrue(start.path("delayMs").asLong() >= 1000, start.toString());
            assertEquals(1, run.all("auto_retry_start").size(), run.all("auto_retry_start").toString());
        }
    }
}
