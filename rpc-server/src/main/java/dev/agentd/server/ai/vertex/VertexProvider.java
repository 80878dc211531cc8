package dev.agentd.server.ai.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.anthropic.AnthropicRequest;
import dev.agentd.server.ai.anthropic.AnthropicStreamMapper;
import dev.agentd.server.ai.gemini.GeminiErrors;
import dev.agentd.server.ai.gemini.GeminiRequest;
import dev.agentd.server.ai.gemini.GeminiStreamMapper;
import dev.agentd.server.ai.http.BodyReader;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.ai.http.RequestHeaders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The {@code google-vertex} API: Gemini and Claude on Google Cloud's Vertex AI, one streaming POST
 * per call. Gemini ids go to {@code …/publishers/google/models/{id}:streamGenerateContent?alt=sse}
 * with the body and stream of {@code google-generative-ai}; ids starting with {@code claude} go to
 * {@code …/publishers/anthropic/models/{id}:streamRawPredict} with the Messages body (no
 * {@code model}, plus {@code anthropic_version}) and Anthropic's stream ({@link VertexEndpoint}).
 *
 * <p>An API key (the request's, or {@code GOOGLE_CLOUD_API_KEY}) travels in {@code x-goog-api-key};
 * otherwise Application Default Credentials give a Bearer token ({@link GoogleAuthSupport}, loaded
 * only here). The credential is ambient, so the provider needs no key of its own.
 */
public final class VertexProvider implements Provider {
    public static final String API = "google-vertex";
    static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

    private final HttpReplyStreamer streamer;
    private final UnaryOperator<String> env;
    private final String userHome;

    public VertexProvider(HttpReplyStreamer streamer) {
        this(streamer, System::getenv, System.getProperty("user.home"));
    }

    /** @param env the process environment and @param userHome the home directory (tests inject theirs) */
    public VertexProvider(HttpReplyStreamer streamer, UnaryOperator<String> env, String userHome) {
        this.streamer = streamer;
        this.env = env;
        this.userHome = userHome;
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public boolean ambientCredential() {
        return true;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        Model model = request.model();
        VertexEndpoint.Publisher publisher = VertexEndpoint.publisher(model.id());
        Supplier<JsonNode> body = () -> body(request, publisher);
        Map<String, String> headers = new LinkedHashMap<>();
        HttpReplyStreamer.Signer signer = HttpReplyStreamer.Signer.NONE;
        String baseUrl;
        String path;
        try {
            String location = VertexEndpoint.location(env, model.baseUrl());
            baseUrl = VertexEndpoint.baseUrl(model.baseUrl(), location);
            String project = VertexEndpoint.projectFromEnv(env);
            String key = apiKey(request);
            if (key != null) {
                KnownSecrets.add(key);
                headers.put("x-goog-api-key", key);
            } else {
                AdcCredential adc = GoogleAuthSupport.load(env, userHome);
                if (project == null) {
                    project = adc.project();
                }
                if (project == null) {
                    throw new RequestHeaders.InvalidRequestException(noProject(adc.source()));
                }
                signer = (uri, all, bytes) -> Map.of("authorization", "Bearer " + adc.accessToken());
            }
            path = VertexEndpoint.path(baseUrl, project, location, model.id());
        } catch (RequestHeaders.InvalidRequestException e) {
            // Ends the attempt through the streamer, like any request that cannot be built.
            String message = e.getMessage();
            signer = (uri, all, bytes) -> {
                throw new RequestHeaders.InvalidRequestException(message);
            };
            baseUrl = VertexEndpoint.baseUrl(null, VertexEndpoint.DEFAULT_LOCATION);
            path = "/";
        }
        StreamRequest routed = request.withBaseUrl(baseUrl);
        return streamer.post(routed, path, headers, body, VertexProvider::errorType,
                (reply, redactor) -> publisher == VertexEndpoint.Publisher.ANTHROPIC
                        ? new AnthropicStreamMapper(reply, model, redactor)
                        : new GeminiStreamMapper(reply, model, redactor, API),
                listener, cancel, signer, BodyReader.SSE);
    }

    /** The Messages body as Vertex takes it: the model is in the URL, the version in the body. */
    static JsonNode body(StreamRequest request, VertexEndpoint.Publisher publisher) {
        if (publisher == VertexEndpoint.Publisher.GOOGLE) {
            return GeminiRequest.build(request);
        }
        ObjectNode body = AnthropicRequest.build(request);
        body.remove("model");
        body.put("anthropic_version", ANTHROPIC_VERSION);
        return body;
    }

    /** Google's {@code error.status} ({@code RESOURCE_EXHAUSTED}), else Anthropic's {@code error.type}. */
    static String errorType(JsonNode root) {
        String status = GeminiErrors.status(root);
        return status != null ? status : HttpErrors.errorDotType(root);
    }

    private String apiKey(StreamRequest request) {
        if (request.apiKey() != null && !request.apiKey().isBlank()) {
            return request.apiKey().trim();
        }
        String fromEnv = env.apply("GOOGLE_CLOUD_API_KEY");
        return fromEnv == null || fromEnv.isBlank() ? null : fromEnv.trim();
    }

    private static String noProject(String source) {
        return "No Google Cloud project for Vertex AI: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT). Looked in "
                + "GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT and the quota_project_id/project_id of the credentials from "
                + source + ".";
    }

}
