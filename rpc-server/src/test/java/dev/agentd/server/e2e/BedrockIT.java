package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.http.BedrockWire;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.matchers.Times;
import org.mockserver.model.HttpRequest;
import org.mockserver.model.HttpResponse;

/**
 * bedrock-converse-stream through the real jar against MockServer serving ConverseStream
 * event-stream frames as a raw body (its own BEDROCK codec writes InvokeModelWithResponseStream):
 * a text reply and a tool round trip signed with SigV4 from env keys, a throttlingException
 * retried; and that a daemon with no Bedrock model loads no AWS class at all.
 */
class BedrockIT {
    private static final String MODEL = "anthropic.claude-sonnet-4-20250514-v1:0";
    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final String SESSION_TOKEN = "IQoJb3JpZ2luX2VjEXAMPLE-session-token-0123456789";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() {
        mock = MockLlm.start();
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private Map<String, String> awsEnv(Path classLog) {
        return Map.of("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY", SECRET,
                "AWS_SESSION_TOKEN", SESSION_TOKEN, "AWS_REGION", "eu-west-1",
                "AWS_CONFIG_FILE", dir.resolve("no-aws-config").toString(),
                "AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-aws-credentials").toString(),
                "JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog);
    }

    private DaemonProcess start(Path classLog) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"amazon-bedrock":{"baseUrl":"%s","api":"bedrock-converse-stream",
                  "models":[{"id":"%s","name":"Claude Sonnet 4","reasoning":true,"contextWindow":200000,
                    "maxTokens":64000,"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}}]}}}
                """.formatted(mock.baseUrl(), MODEL));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50,\"maxRetries\":3}}");
        DaemonProcess started = DaemonProcess.start(agentDir, dir, awsEnv(classLog), "--no-session", "--model",
                "amazon-bedrock/" + MODEL);
        started.awaitNth("ready", 1);
        return started;
    }

    private static HttpRequest converse() {
        return request().withMethod("POST").withPath("/model/anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream");
    }

    private static HttpResponse frames(byte[] body) {
        return response().withStatusCode(200).withHeader("content-type", "application/vnd.amazon.eventstream")
                .withBody(body);
    }

    @Test
    void aSignedTextReplyThenAToolRoundTrip() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "alpha beta");
        mock.server().when(converse(), Times.exactly(1)).respond(frames(BedrockWire.text("Hello from Bedrock.", 12, 4)));
        mock.server().when(converse(), Times.exactly(1))
                .respond(frames(BedrockWire.toolUse("tooluse_1", "read", "{\"path\":\"a.txt\"}")));
        mock.server().when(converse()).respond(frames(BedrockWire.text("The file says alpha beta.", 20, 6)));
        Path classLog = dir.resolve("classes.log");
        daemon = start(classLog);

        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode first = daemon.awaitNth("agent_end", 1).path("messages").get(1);
        assertEquals("Hello from Bedrock.", first.path("content").get(0).path("text").asText(), first.toString());
        assertEquals("bedrock-converse-stream", first.path("api").asText());
        assertEquals(12, first.path("usage").path("input").asInt());

        daemon.send(command("prompt", "p2", "message", "read a.txt"));
        JsonNode messages = daemon.awaitNth("agent_end", 2).path("messages");
        assertEquals("toolUse", messages.get(1).path("stopReason").asText(), messages.toString());
        assertEquals("The file says alpha beta.", messages.get(3).path("content").get(0).path("text").asText());

        org.mockserver.model.HttpRequest[] recorded = mock.server().retrieveRecordedRequests(converse());
        assertEquals(3, recorded.length);
        String auth = recorded[0].getFirstHeader("authorization");
        assertTrue(auth.matches("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/eu-west-1/bedrock/aws4_request, "
                + "SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}"), auth);
        assertTrue(recorded[0].getFirstHeader("x-amz-date").matches("\\d{8}T\\d{6}Z"));
        assertEquals(SESSION_TOKEN, recorded[0].getFirstHeader("x-amz-security-token"));
        JsonNode third = Json.mapper().readTree(recorded[2].getBodyAsString());
        assertEquals("tooluse_1", third.path("messages").get(4).path("content").get(0).path("toolResult")
                .path("toolUseId").asText(), third.toString());
        assertTrue(third.path("messages").get(4).toString().contains("alpha beta"), third.toString());
        assertFalse(daemon.stderr().contains(SECRET));
        assertTrue(Files.readString(classLog).contains("software.amazon.awssdk.http.auth.aws.signer"),
                "the Bedrock request loaded the signer (the lazy-load check below can see AWS classes)");
    }

    @Test
    void aThrottlingExceptionFrameIsRetried() throws Exception {
        mock.server().when(converse(), Times.exactly(1)).respond(frames(BedrockWire.concat(
                BedrockWire.event("messageStart", "{\"role\":\"assistant\"}"),
                BedrockWire.exception("throttlingException", "{\"message\":\"Too many requests, please wait.\"}"))));
        mock.server().when(converse()).respond(frames(BedrockWire.text("After the wait.", 3, 3)));
        daemon = start(dir.resolve("classes.log"));

        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode failed = daemon.awaitNth("agent_end", 1);
        assertTrue(failed.path("willRetry").asBoolean(), failed.toString());
        JsonNode end = daemon.awaitNth("agent_end", 2);
        List<JsonNode> messages = List.copyOf(Arrays.asList(Json.mapper().treeToValue(end.path("messages"),
                JsonNode[].class)));
        JsonNode last = messages.get(messages.size() - 1);
        assertEquals("After the wait.", last.path("content").path(0).path("text").asText(), end.toString());
        assertEquals(2, mock.server().retrieveRecordedRequests(converse()).length);
        assertTrue(daemon.records().stream().anyMatch(r -> r.path("type").asText().equals("auto_retry_start")
                && r.path("errorMessage").asText().contains("throttlingException")), daemon.records().toString());
    }

    private static HttpResponse awsError(int status, String type, String message) {
        return response().withStatusCode(status).withHeader("content-type", "application/json")
                .withHeader("x-amzn-ErrorType", type + ":http://internal.amazon.com/coral/com.amazon.bedrock/")
                .withBody("{\"message\":\"" + message + "\"}");
    }

    private static String lastText(JsonNode agentEnd) {
        JsonNode messages = agentEnd.path("messages");
        return messages.get(messages.size() - 1).path("content").path(0).path("text").asText();
    }

    @Test
    void anHttp429WaitsItsRetryAfterAndTheReplyReportsUsageAndCost() throws Exception {
        mock.server().when(converse(), Times.exactly(1)).respond(awsError(429, "ThrottlingException",
                "Too many tokens, please wait before trying again.").withHeader("Retry-After", "2"));
        mock.server().when(converse()).respond(frames(BedrockWire.text("After two seconds.", 1_000, 200)));
        daemon = start(dir.resolve("classes.log"));

        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode retry = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(retry.path("errorMessage").asText().startsWith("429 "), retry.toString());
        Jittered.assertDelay(2000, retry.path("delayMs").asLong(), "Retry-After is the wait: " + retry);
        JsonNode end = daemon.awaitFinalAgentEnd(0);
        assertEquals("After two seconds.", lastText(end), end.toString());
        JsonNode usage = end.path("messages").get(end.path("messages").size() - 1).path("usage");
        assertEquals(1_000, usage.path("input").asInt(), usage.toString());
        assertEquals(200, usage.path("output").asInt(), usage.toString());
        // 1000 × $3/M + 200 × $15/M
        assertEquals(0.006, usage.path("cost").path("total").asDouble(), 1e-9, usage.toString());
    }

    @Test
    void a503AStreamCutMidWayAndAMalformedFrameAreRetriedAndTheSessionGoesOn() throws Exception {
        byte[] whole = BedrockWire.text("whole at last", 3, 3);
        byte[] corrupt = BedrockWire.text("never shown", 3, 3);
        corrupt[corrupt.length - 1] ^= 0x5a; // the last frame's message CRC no longer matches
        mock.server().when(converse(), Times.exactly(1)).respond(awsError(503, "ServiceUnavailableException",
                "Bedrock is unable to process your request."));
        mock.server().when(converse(), Times.exactly(1)).respond(frames(BedrockWire.concat(
                BedrockWire.event("messageStart", "{\"role\":\"assistant\"}"),
                BedrockWire.event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"half a re\"}}"))));
        mock.server().when(converse(), Times.exactly(1)).respond(frames(corrupt));
        mock.server().when(converse()).respond(frames(whole));
        daemon = start(dir.resolve("classes.log"));

        daemon.send(command("prompt", "p1", "message", "hi"));
        assertTrue(daemon.awaitNth("auto_retry_start", 1).path("errorMessage").asText().startsWith("503 "));
        JsonNode cut = daemon.awaitNth("auto_retry_start", 2);
        assertTrue(cut.path("errorMessage").asText().contains("Bedrock stream ended without messageStop"),
                cut.toString());
        JsonNode malformed = daemon.awaitNth("auto_retry_start", 3);
        assertTrue(malformed.path("errorMessage").asText().contains("Malformed Bedrock event stream frame"),
                malformed.toString());
        JsonNode end = daemon.awaitFinalAgentEnd(0);
        assertEquals("whole at last", lastText(end), end.toString());
        assertEquals(4, mock.server().retrieveRecordedRequests(converse()).length);
        assertTrue(daemon.request(command("get_state", "s")).path("success").asBoolean());
        assertFalse(String.join("\n", daemon.rawLines()).contains(SECRET), "the secret never reaches stdout");
    }

    @Test
    void aDaemonWithoutABedrockModelLoadsNoAwsClass() throws Exception {
        Path classLog = dir.resolve("faux-classes.log");
        try (DaemonProcess faux = DaemonProcess.start(Files.createDirectories(dir.resolve("agent-faux")), dir,
                Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog), "--no-session")) {
            faux.awaitNth("ready", 1);
            JsonNode state = faux.request(command("get_state", "s"));
            assertTrue(state.path("success").asBoolean(), state.toString());
            assertTrue(faux.request(command("get_available_models", "m")).path("success").asBoolean());
            assertEquals(0, faux.closeStdinAndWait());
        }
        String log = Files.readString(classLog);
        assertTrue(log.contains("dev.agentd.server.ai.bedrock.BedrockProvider"), "the provider is registered");
        assertFalse(log.contains("software.amazon"), "an AWS class was loaded without a Bedrock request");
    }
}
