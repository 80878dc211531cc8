package dev.agentd.server.ai.bedrock;

import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.RequestHeaders;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.sse.SseParser;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.runtime.LogText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * The only class that names AWS SDK types: credentials, region, SigV4 and event-stream frames.
 * Nothing refers to it until a Bedrock request is made, so no {@code software.amazon} class is
 * loaded by a daemon that never calls Bedrock (BedrockLazyLoadTest).
 */
final class AwsSupport {
    /** Bedrock's frames carry one JSON event each; a megabyte is far past any real one. */
    static final int MAX_FRAME_BYTES = 1 << 20;
    private static final int PRELUDE_BYTES = 12;
    private static final int MIN_FRAME_BYTES = 16;
    /**
     * The SDK's per-source reasons run to about 1.5 KB when every source fails; cut so the whole
     * message stays within what the classifier reads (TextBounds.MAX_ERROR_MESSAGE_CHARS).
     */
    private static final int MAX_REASON_CHARS = 1_400;

    private AwsSupport() {}

    /** The chain (env, profile, SSO, web identity, container, IMDS), built on first use. */
    private static final class Chain {
        static final DefaultCredentialsProvider PROVIDER = DefaultCredentialsProvider.builder().build();
    }

    /** The profile's region (AWS_PROFILE, ~/.aws/config), or null. */
    static String profileRegion() {
        try {
            return new AwsProfileRegionProvider().getRegion().id();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * SigV4 headers for a POST ({@code authorization}, {@code x-amz-date}, the session token).
     * Keys from {@code env} first (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN),
     * else the SDK's default chain. The secrets are registered with KnownSecrets before use.
     */
    static Map<String, String> sign(URI uri, Map<String, String> headers, byte[] body, String region,
            UnaryOperator<String> env, Clock clock) throws RequestHeaders.InvalidRequestException {
        AwsCredentials credentials = credentials(env);
        KnownSecrets.add(credentials.secretAccessKey());
        if (credentials instanceof AwsSessionCredentials session) {
            KnownSecrets.add(session.sessionToken());
        }
        return signWith(credentials, "POST", uri, headers, body, region, "bedrock", clock);
    }

    /** Signs one request with given keys (also the SigV4 test suite's entry point). */
    static Map<String, String> signWith(AwsCredentials credentials, String method, URI uri,
            Map<String, String> headers, byte[] body, String region, String service, Clock clock) {
        SdkHttpRequest.Builder http = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(uri);
        headers.forEach(http::putHeader);
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(http.build())
                .payload(body == null ? null : ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(HttpSigner.SIGNING_CLOCK, clock));
        Map<String, String> added = new LinkedHashMap<>();
        signed.request().headers().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if ((lower.equals("authorization") || lower.startsWith("x-amz-")) && !values.isEmpty()) {
                added.put(lower, values.get(0));
            }
        });
        return added;
    }

    private static AwsCredentials credentials(UnaryOperator<String> env)
            throws RequestHeaders.InvalidRequestException {
        String id = env.apply("AWS_ACCESS_KEY_ID");
        String secret = env.apply("AWS_SECRET_ACCESS_KEY");
        if (id != null && !id.isBlank() && secret != null && !secret.isBlank()) {
            String token = env.apply("AWS_SESSION_TOKEN");
            return token == null || token.isBlank() ? AwsBasicCredentials.create(id, secret)
                    : AwsSessionCredentials.create(id, secret, token);
        }
        try {
            return Chain.PROVIDER.resolveCredentials();
        } catch (RuntimeException e) {
            throw new RequestHeaders.InvalidRequestException(missingCredentials(env, e.getMessage()));
        }
    }

    /**
     * Every place the lookup went, in order, then the SDK's own reason per source (which names
     * sources, profiles and property names, never a value; redacted all the same).
     */
    static String missingCredentials(UnaryOperator<String> env, String sdkMessage) {
        String profile = Objects.requireNonNullElse(nonBlank(env.apply("AWS_PROFILE")), "default");
        String config = Objects.requireNonNullElse(nonBlank(env.apply("AWS_CONFIG_FILE")), "~/.aws/config");
        String shared = Objects.requireNonNullElse(nonBlank(env.apply("AWS_SHARED_CREDENTIALS_FILE")),
                "~/.aws/credentials");
        String reasons = sdkMessage == null ? "" : sdkMessage;
        int list = reasons.indexOf(" : [");
        reasons = list < 0 ? reasons : reasons.substring(list + 3);
        reasons = Redactor.of(null, List.of()).apply(TextBounds.cut(reasons, MAX_REASON_CHARS));
        return "No AWS credentials for Bedrock. Looked in: AWS_BEARER_TOKEN_BEDROCK and the model's apiKey "
                + "(a Bedrock API key); AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN); the "
                + "aws.accessKeyId system properties; AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN; profile '"
                + LogText.clip(profile) + "' in " + LogText.clip(shared) + " and " + LogText.clip(config)
                + " (keys, role_arn, sso_session, credential_process); the container endpoint "
                + "(AWS_CONTAINER_CREDENTIALS_FULL_URI/RELATIVE_URI); EC2 instance metadata."
                + (reasons.isBlank() ? "" : " AWS SDK: " + reasons);
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    /**
     * Reads AWS event-stream frames, each bounded by {@link #MAX_FRAME_BYTES} before it is read,
     * its CRCs checked by the SDK's decoder. Each frame becomes one event: the name is
     * {@code :event-type} (or {@code :exception-type}, {@code :error-code}), the data its JSON
     * payload, the id its {@code :message-type} ({@code event}, {@code exception}, {@code error}).
     */
    static boolean readFrames(InputStream body, SseParser.Handler handler) throws IOException {
        while (true) {
            byte[] prelude = body.readNBytes(PRELUDE_BYTES);
            if (prelude.length == 0) {
                return false;
            }
            if (prelude.length < PRELUDE_BYTES) {
                throw new IOException("Bedrock event stream ended inside a frame");
            }
            int total = ByteBuffer.wrap(prelude).getInt();
            if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) {
                throw new IOException("Bedrock event stream frame of " + Integer.toUnsignedString(total)
                        + " bytes (limit " + MAX_FRAME_BYTES + ")");
            }
            byte[] frame = new byte[total];
            System.arraycopy(prelude, 0, frame, 0, PRELUDE_BYTES);
            int rest = body.readNBytes(frame, PRELUDE_BYTES, total - PRELUDE_BYTES);
            if (rest < total - PRELUDE_BYTES) {
                throw new IOException("Bedrock event stream ended inside a frame");
            }
            Message message;
            try {
                message = Message.decode(ByteBuffer.wrap(frame));
            } catch (RuntimeException e) {
                throw new IOException("Malformed Bedrock event stream frame (" + e.getClass().getSimpleName() + ")");
            }
            if (!handler.onEvent(event(message))) {
                return true;
            }
        }
    }

    private static SseEvent event(Message message) {
        Map<String, HeaderValue> headers = message.getHeaders();
        String kind = header(headers, ":message-type", "event");
        String payload = new String(message.getPayload(), StandardCharsets.UTF_8);
        return switch (kind) {
            case "exception" -> new SseEvent(header(headers, ":exception-type", "exception"), payload, kind);
            case "error" -> new SseEvent(header(headers, ":error-code", "error"),
                    "{\"message\":" + quote(header(headers, ":error-message", "")) + "}", kind);
            default -> new SseEvent(header(headers, ":event-type", ""), payload, kind);
        };
    }

    private static String header(Map<String, HeaderValue> headers, String name, String fallback) {
        HeaderValue value = headers.get(name);
        try {
            return value == null ? fallback : value.getString();
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    private static String quote(String text) {
        return dev.agentd.protocol.json.Json.mapper().getNodeFactory().textNode(text).toString();
    }
}
