package dev.agentd.server.ai.bedrock;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code bedrock-converse-stream} API: one POST to {@code /model/{modelId}/converse-stream}
 * per call, authenticated by a Bedrock API key ({@code AWS_BEARER_TOKEN_BEDROCK}, or the model's
 * {@code apiKey}) as a Bearer token, else signed with SigV4 from the AWS credential chain. The
 * credential is ambient, so the provider needs no key of its own ({@link #requiresCredential}).
 */
public final class BedrockProvider implements Provider {
    public static final String API = "bedrock-converse-stream";
    static final String DEFAULT_REGION = "us-east-1";
    private static final Pattern STANDARD_HOST = Pattern.compile(
            "bedrock-runtime(?:-fips)?\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?");

    private final HttpReplyStreamer streamer;
    private final UnaryOperator<String> env;
    private final Clock clock;

    public BedrockProvider(HttpReplyStreamer streamer) {
        this(streamer, System::getenv, Clock.systemUTC());
    }

    /** @param env the process environment (tests inject theirs) */
    public BedrockProvider(HttpReplyStreamer streamer, UnaryOperator<String> env, Clock clock) {
        this.streamer = streamer;
        this.env = env;
        this.clock = clock;
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public boolean requiresCredential() {
        return false;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        String region = region(request.model().baseUrl());
        StreamRequest routed = withBaseUrl(request, baseUrl(request.model().baseUrl(), region));
        String bearer = nonBlank(env.apply("AWS_BEARER_TOKEN_BEDROCK"), request.apiKey());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("accept", "application/vnd.amazon.eventstream");
        HttpReplyStreamer.Signer signer;
        if (bearer != null) {
            KnownSecrets.add(bearer);
            headers.put("authorization", "Bearer " + bearer);
            signer = HttpReplyStreamer.Signer.NONE;
        } else {
            signer = (uri, all, body) -> AwsSupport.sign(uri, signedHeaders(all), body, region, env, clock);
        }
        return streamer.post(routed, path(request.model().id()), headers, () -> BedrockRequest.build(request),
                root -> null, (reply, redactor) -> new BedrockStreamMapper(reply, request.model(), redactor),
                listener, cancel, signer, AwsSupport::readFrames);
    }

    /** {@code /model/{modelId}/converse-stream}, the id percent-encoded (ids hold {@code :}, ARNs {@code /}). */
    static String path(String modelId) {
        StringBuilder out = new StringBuilder("/model/");
        for (byte b : modelId.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == '~')) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.append("/converse-stream").toString();
    }

    /** AWS_REGION, AWS_DEFAULT_REGION, a standard endpoint's region, the profile's, else us-east-1. */
    String region(String baseUrl) {
        String configured = nonBlank(env.apply("AWS_REGION"), env.apply("AWS_DEFAULT_REGION"));
        if (configured != null) {
            return configured;
        }
        if (baseUrl != null && !baseUrl.isBlank()) {
            try {
                String host = URI.create(baseUrl.trim()).getHost();
                Matcher m = host == null ? null : STANDARD_HOST.matcher(host.toLowerCase(java.util.Locale.ROOT));
                if (m != null && m.matches()) {
                    return m.group(1);
                }
            } catch (IllegalArgumentException e) {
                // an invalid baseUrl fails later, with its own message
            }
        }
        String profile = AwsSupport.profileRegion();
        return profile != null ? profile : DEFAULT_REGION;
    }

    static String baseUrl(String configured, String region) {
        return configured != null && !configured.isBlank() ? configured
                : "https://bedrock-runtime." + region + ".amazonaws.com";
    }

    /** Only the headers that travel signed: content-type, accept and the model's own. */
    private static Map<String, String> signedHeaders(Map<String, String> all) {
        Map<String, String> signed = new LinkedHashMap<>(all);
        signed.keySet().removeIf(name -> name.equalsIgnoreCase("authorization"));
        return signed;
    }

    private static StreamRequest withBaseUrl(StreamRequest request, String baseUrl) {
        Model m = request.model();
        if (baseUrl.equals(m.baseUrl())) {
            return request;
        }
        Model routed = new Model(m.id(), m.name(), m.api(), m.provider(), baseUrl, m.reasoning(), m.input(), m.cost(),
                m.contextWindow(), m.maxTokens());
        return new StreamRequest(routed, request.systemPrompt(), request.messages(), request.tools(),
                request.thinkingLevel(), request.apiKey(), request.headers(), request.sessionId(),
                request.maxOutputTokens());
    }

    private static String nonBlank(String first, String second) {
        if (first != null && !first.isBlank()) {
            return first.trim();
        }
        return second != null && !second.isBlank() ? second.trim() : null;
    }
}
