package dev.agentd.server.ai.bedrock;

import dev.agentd.protocol.message.AgentMessage;
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
import java.util.Locale;
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
            "bedrock-runtime(-fips)?\\.([a-z0-9-]{1,40})\\.amazonaws\\.com(?:\\.cn)?");
    /** {@code arn:aws[-partition]:bedrock:<region>:…} (an inference profile or provisioned model). */
    private static final Pattern ARN_REGION = Pattern.compile("arn:aws(?:-[a-z0-9-]{1,20})?:bedrock:([a-z0-9-]{1,40}):");

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

    /** Family expansion counts Bedrock only where AWS credentials are evident (auth.AmbientCredentials). */
    @Override
    public boolean ambientCredential() {
        return true;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        String region = region(request.model().id(), request.model().baseUrl());
        StreamRequest routed = request.withBaseUrl(baseUrl(request.model().baseUrl(), region));
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

    /**
     * The signing region: an inference-profile ARN's own region, else AWS_REGION or
     * AWS_DEFAULT_REGION, else the profile's region (AWS_PROFILE or default, ~/.aws/config), else a
     * standard endpoint's region, else us-east-1. A catalog baseUrl names us-east-1 for most
     * models, so a configured region must win over it (as in pi).
     */
    String region(String modelId, String baseUrl) {
        Matcher arn = ARN_REGION.matcher(modelId);
        if (arn.lookingAt()) {
            return arn.group(1);
        }
        String configured = nonBlank(env.apply("AWS_REGION"), env.apply("AWS_DEFAULT_REGION"));
        if (configured != null) {
            return configured;
        }
        String profile = AwsSupport.profileRegion();
        if (profile != null) {
            return profile;
        }
        Endpoint standard = Endpoint.standard(baseUrl);
        return standard != null ? standard.region() : DEFAULT_REGION;
    }

    /**
     * Where the request goes: a custom baseUrl (a proxy, a VPC endpoint, a test server) as
     * configured; a blank or standard one ({@code bedrock-runtime[-fips].<region>.amazonaws.com})
     * moved to the signing region, keeping FIPS.
     */
    static String baseUrl(String configured, String region) {
        boolean blank = configured == null || configured.isBlank();
        Endpoint standard = blank ? null : Endpoint.standard(configured);
        if (!blank && standard == null) {
            return configured;
        }
        boolean fips = standard != null && standard.fips();
        return "https://bedrock-runtime" + (fips ? "-fips" : "") + "." + region + ".amazonaws.com"
                + (region.startsWith("cn-") ? ".cn" : "");
    }

    /** A standard Bedrock runtime endpoint: its region and whether it is the FIPS one. */
    record Endpoint(String region, boolean fips) {
        static Endpoint standard(String baseUrl) {
            if (baseUrl == null || baseUrl.isBlank()) {
                return null;
            }
            try {
                URI uri = URI.create(baseUrl.trim());
                String host = uri.getHost();
                String path = uri.getRawPath();
                Matcher m = host == null ? null : STANDARD_HOST.matcher(host.toLowerCase(Locale.ROOT));
                boolean bare = path == null || path.isEmpty() || path.equals("/");
                return m != null && m.matches() && bare && "https".equalsIgnoreCase(uri.getScheme())
                        ? new Endpoint(m.group(2), m.group(1) != null) : null;
            } catch (IllegalArgumentException e) {
                return null; // an invalid baseUrl fails later, with its own message
            }
        }
    }

    /** Only the headers that travel signed: content-type, accept and the model's own. */
    private static Map<String, String> signedHeaders(Map<String, String> all) {
        Map<String, String> signed = new LinkedHashMap<>(all);
        signed.keySet().removeIf(name -> name.equalsIgnoreCase("authorization"));
        return signed;
    }


    private static String nonBlank(String first, String second) {
        if (first != null && !first.isBlank()) {
            return first.trim();
        }
        return second != null && !second.isBlank() ? second.trim() : null;
    }
}
