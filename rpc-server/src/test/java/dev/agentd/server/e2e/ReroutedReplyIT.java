package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.HttpLlmResponse.llmResponse;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.Completion.completion;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.mockserver.matchers.Times;
import org.mockserver.model.Provider;
import org.mockserver.model.Usage;

/**
 * FALLBACK §10 through the real process, with MockServer answering in each API's own format and
 * naming another model than the one requested (Anthropic's {@code message.model}, a chat chunk's
 * {@code model}, Responses' {@code response.model}, Gemini's {@code modelVersion}): the reply
 * records {@code responseModel}, {@code model_rerouted} comes once before its {@code message_end},
 * and the reply is priced at the model that answered when models.json knows it.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(ReroutedReplyIT.Api.class)
class ReroutedReplyIT {
    private static final String KEY = "sk-mockserver-reroute-0123456789abcdef";
    private static final String REQUESTED = "mock-model";
    private static final String RESPONDED = "mock-fallback";

    /** An API as models.json names it, MockServer's codec for it, and whether that codec streams usage. */
    enum Api {
        ANTHROPIC("anthropic-messages", Provider.ANTHROPIC, "", true),
        OPENAI("openai-completions", Provider.OPENAI, "", false), // MockServer 7.6.0 streams no usage chunk
        RESPONSES("openai-responses", Provider.OPENAI_RESPONSES, "/v1", true),
        GEMINI("google-generative-ai", Provider.GEMINI, "/v1beta", true);

        final String api;
        final Provider codec;
        final String basePath;
        final boolean streamsUsage;

        Api(String api, Provider codec, String basePath, boolean streamsUsage) {
            this.api = api;
            this.codec = codec;
            this.basePath = basePath;
            this.streamsUsage = streamsUsage;
        }
    }

    @Parameter
    Api api;
    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        if (mock != null) {
            mock.close();
        }
    }

    @Test
    void aReplyFromAnotherModelIsRecordedAnnouncedAndPricedAtIt() throws IOException {
        mock = MockLlm.start();
        mock.server().when(request().withMethod("POST"), Times.exactly(1)).respondWithLlm(llmResponse()
                .withProvider(api.codec).withModel(RESPONDED).withCompletion(completion().withText("rerouted")
                        .streaming().withUsage(Usage.usage().withInputTokens(1000).withOutputTokens(100))));
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        // the requested model costs three times what the one that answers does
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"mock":{"baseUrl":"%s%s","api":"%s","apiKey":"%s","models":[
                  {"id":"%s","contextWindow":200000,"maxTokens":8192,"cost":{"input":3,"output":15}},
                  {"id":"%s","contextWindow":200000,"maxTokens":8192,"cost":{"input":1,"output":5}}]}}}
                """.formatted(mock.baseUrl(), api.basePath, api.api, KEY, REQUESTED, RESPONDED));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50}}");
        daemon = DaemonProcess.start(agentDir, dir, "--model", "mock/" + REQUESTED);
        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.awaitNth("agent_settled", 1);

        List<JsonNode> records = daemon.records();
        List<JsonNode> rerouted = records.stream().filter(r -> "model_rerouted".equals(r.path("type").asText()))
                .toList();
        assertEquals(1, rerouted.size(), records.toString());
        assertEquals(REQUESTED, rerouted.get(0).path("requested").asText());
        assertEquals(RESPONDED, rerouted.get(0).path("responded").asText());
        assertTrue(rerouted.get(0).path("reason").isMissingNode(), "no reason named");
        JsonNode end = records.get(records.indexOf(rerouted.get(0)) + 1);
        assertEquals("message_end", end.path("type").asText(), "announced just before the reply's end");
        JsonNode reply = end.path("message");
        assertEquals("rerouted", reply.at("/content/0/text").asText(), reply.toString());
        assertEquals(REQUESTED, reply.path("model").asText());
        assertEquals(RESPONDED, reply.path("responseModel").asText());
        if (api.streamsUsage) {
            assertEquals(1000, reply.at("/usage/input").asLong(), reply.toString());
            // 1000 × $1/M + 100 × $5/M, not 1000 × $3/M + 100 × $15/M
            assertEquals(0.0015, reply.at("/usage/cost/total").asDouble(), 1e-9, reply.toString());
        }
    }
}
