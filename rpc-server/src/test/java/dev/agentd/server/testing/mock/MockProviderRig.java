package dev.agentd.server.testing.mock;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.mockserver.model.HttpRequest.request;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.e2e.DaemonProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mockserver.matchers.TimeToLive;
import org.mockserver.matchers.Times;
import org.mockserver.model.HttpLlmResponse;
import org.mockserver.model.HttpRequest;
import org.mockserver.model.Provider;

/**
 * One agentd process whose model is a models.json provider served by a {@link MockLlm}: the API
 * under test, its MockServer codec and the path agentd posts to. Other provider ITs reuse it with
 * their own {@link Api}. Expectations are scripted per scenario ({@link #reset} between them):
 * {@link #first} answers the next {@code n} requests before {@link #then}'s answer applies.
 */
public final class MockProviderRig implements AutoCloseable {
    public static final String KEY = "sk-mockserver-rig-0123456789abcdef";

    /**
     * An API as agentd and MockServer name it.
     *
     * @param api pi's api name in models.json ({@code anthropic-messages}, {@code openai-completions}, …)
     * @param codec MockServer's encoder of that API's replies
     * @param path what agentd appends to the provider's baseUrl
     */
    public record Api(String api, Provider codec, String path) {
        public static final Api ANTHROPIC = new Api("anthropic-messages", Provider.ANTHROPIC, "/v1/messages");
        public static final Api OPENAI = new Api("openai-completions", Provider.OPENAI, "/chat/completions");
    }

    /** The models.json model: prices per million tokens, as pi's models.json has them. */
    public static final String MODEL_ID = "mock-model";
    public static final String PROVIDER = "mock";

    private final MockLlm mock;
    private final Api api;
    private final DaemonProcess daemon;
    private int priority = 1000;

    private MockProviderRig(MockLlm mock, Api api, DaemonProcess daemon) {
        this.mock = mock;
        this.api = api;
        this.daemon = daemon;
    }

    /**
     * Starts MockServer and a daemon in {@code dir} (agent dir {@code dir/agent}, cwd {@code dir})
     * whose model is {@code mock/mock-model} over {@code api}; {@code settingsJson} is the agent's
     * settings.json (small retry delays keep the IT short).
     */
    public static MockProviderRig start(Path dir, Api api, String settingsJson) throws IOException {
        MockLlm mock = MockLlm.start();
        try {
            Path agentDir = Files.createDirectories(dir.resolve("agent"));
            Files.writeString(agentDir.resolve("models.json"), modelsJson(api, mock.baseUrl()));
            Files.writeString(agentDir.resolve("settings.json"), settingsJson);
            DaemonProcess daemon = DaemonProcess.start(agentDir, dir, "--model", PROVIDER + "/" + MODEL_ID);
            daemon.awaitNth("ready", 1);
            return new MockProviderRig(mock, api, daemon);
        } catch (IOException | RuntimeException | Error e) {
            mock.close();
            throw e;
        }
    }

    /** A models.json with one provider {@code mock} over {@code api} at {@code baseUrl}. */
    public static String modelsJson(Api api, String baseUrl) {
        return """
                {"providers":{"%s":{"baseUrl":"%s","api":"%s","apiKey":"%s",
                  "models":[{"id":"%s","contextWindow":200000,"maxTokens":8192,
                    "cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}}]}}}
                """.formatted(PROVIDER, baseUrl, api.api(), KEY, MODEL_ID);
    }

    public DaemonProcess daemon() {
        return daemon;
    }

    public MockLlm mock() {
        return mock;
    }

    public Api api() {
        return api;
    }

    /** The request agentd sends for this API. */
    public HttpRequest expected() {
        return request().withMethod("POST").withPath(api.path());
    }

    /** Forgets every expectation and recorded request. */
    public void reset() {
        mock.server().reset();
        priority = 1000;
    }

    /** The next {@code n} requests get {@code reply} (earlier {@code first} calls go before later ones). */
    public MockProviderRig first(int n, HttpLlmResponse reply) {
        mock.server().when(expected(), Times.exactly(n), TimeToLive.unlimited(), priority--)
                .respondWithLlm(reply.withProvider(api.codec()).withModel(MODEL_ID));
        return this;
    }

    /** Every request not answered by a {@link #first} gets {@code reply}. */
    public MockProviderRig then(HttpLlmResponse reply) {
        mock.server().when(expected(), Times.unlimited(), TimeToLive.unlimited(), 0)
                .respondWithLlm(reply.withProvider(api.codec()).withModel(MODEL_ID));
        return this;
    }

    /** The JSON bodies agentd posted, oldest first. */
    public List<JsonNode> requests() throws IOException {
        List<JsonNode> bodies = new ArrayList<>();
        for (HttpRequest recorded : mock.server().retrieveRecordedRequests(expected())) {
            bodies.add(Json.mapper().readTree(recorded.getBodyAsString()));
        }
        return bodies;
    }

    /** Sends a prompt and returns the records from it up to its run's final {@code agent_end}. */
    public Run prompt(String id, String text) throws IOException {
        int from = daemon.records().size();
        daemon.send(command("prompt", id, "message", text));
        JsonNode end = daemon.awaitFinalAgentEnd(from);
        List<JsonNode> all = daemon.records();
        int to = all.indexOf(end);
        return new Run(List.copyOf(all.subList(from, to + 1)), end);
    }

    /** One prompt's records, in order, and its final {@code agent_end}. */
    public record Run(List<JsonNode> records, JsonNode end) {
        public List<JsonNode> all(String type) {
            return records.stream().filter(node -> type.equals(node.path("type").asText())).toList();
        }

        /** The last assistant message the run ended with. */
        public JsonNode reply() {
            JsonNode messages = end.path("messages");
            for (int i = messages.size() - 1; i >= 0; i--) {
                if ("assistant".equals(messages.get(i).path("role").asText())) {
                    return messages.get(i);
                }
            }
            throw new AssertionError("no assistant message in " + end);
        }

        public String text() {
            StringBuilder text = new StringBuilder();
            for (JsonNode block : reply().path("content")) {
                if ("text".equals(block.path("type").asText())) {
                    text.append(block.path("text").asText());
                }
            }
            return text.toString();
        }
    }

    @Override
    public void close() {
        try {
            daemon.close();
        } finally {
            mock.close();
        }
    }
}
