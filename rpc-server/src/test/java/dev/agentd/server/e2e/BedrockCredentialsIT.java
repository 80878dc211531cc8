package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.BedrockWire;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.model.HttpRequest;

/**
 * Bedrock's credentials the way AWS users have them, resolved by the AWS SDK's own chain inside
 * the real agentd.jar, each token exchange answered by MockServer through the SDK's per-service
 * endpoint variables: web identity (STS AssumeRoleWithWebIdentity, as on EKS and in CI) and IAM
 * Identity Center (an SSO session's cached token traded for role credentials). The keys the
 * exchange returns sign the Bedrock call and never appear in the daemon's output; with no
 * credential anywhere the error names every place looked and the session stays usable.
 */
class BedrockCredentialsIT {
    private static final String MODEL = "anthropic.claude-sonnet-4-20250514-v1:0";
    private static final String STS_SECRET = "stsSecretKeyEXAMPLE/0123456789abcdefghijkl";
    private static final String STS_TOKEN = "FwoGZXIvYXdzEXAMPLE-sts-session-token-0123456789";
    private static final String SSO_SECRET = "ssoSecretKeyEXAMPLE/0123456789abcdefghijkl";
    private static final String SSO_TOKEN = "IQoJb3JpZ2luEXAMPLE-sso-session-token-0123456789";
    private static final String SSO_ACCESS_TOKEN = "aoaAAAAAGexample-sso-access-token-0123456789";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() {
        mock = MockLlm.start();
        mock.server().when(converse()).respond(response().withStatusCode(200)
                .withHeader("content-type", "application/vnd.amazon.eventstream")
                .withBody(BedrockWire.text("Signed by the chain.", 5, 4)));
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private static HttpRequest converse() {
        return request().withMethod("POST").withPath("/model/anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream");
    }

    /** No ambient AWS setting of the machine running the test reaches the daemon. */
    private Map<String, String> cleanEnv() {
        Map<String, String> env = new HashMap<>();
        for (String name : new String[] {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                "AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
                "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"}) {
            env.put(name, null);
        }
        env.put("HOME", dir.toString());
        env.put("AWS_CONFIG_FILE", dir.resolve("aws-config").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("aws-credentials").toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        return env;
    }

    private DaemonProcess start(Map<String, String> env) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"amazon-bedrock":{"baseUrl":"%s","api":"bedrock-converse-stream",
                  "models":[{"id":"%s","name":"Claude Sonnet 4","contextWindow":200000,"maxTokens":64000}]}}}
                """.formatted(mock.baseUrl(), MODEL));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"enabled\":false}}");
        DaemonProcess started = DaemonProcess.start(agentDir, dir, env, "--model", "amazon-bedrock/" + MODEL);
        started.awaitNth("ready", 1);
        return started;
    }

    private String promptAndAuthorization() throws IOException {
        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode reply = daemon.awaitNth("agent_end", 1).path("messages").get(1);
        assertEquals("Signed by the chain.", reply.path("content").get(0).path("text").asText(), reply.toString());
        return mock.server().retrieveRecordedRequests(converse())[0].getFirstHeader("authorization");
    }

    private void assertNothingLeaks(String... secrets) throws IOException {
        String sessions = "";
        try (var files = Files.walk(dir.resolve("agent"))) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                sessions += Files.readString(file, StandardCharsets.UTF_8);
            }
        }
        for (String secret : secrets) {
            assertFalse(daemon.stderr().contains(secret), "stderr leaks a secret");
            assertFalse(daemon.records().toString().contains(secret), "stdout leaks a secret");
            assertFalse(sessions.contains(secret), "a file under the agent dir leaks a secret");
        }
    }

    @Test
    void webIdentityCredentialsFromStsSignTheCall() throws Exception {
        Path token = Files.writeString(dir.resolve("web-identity-token"), "eyJhbGciOiJSUzI1NiJ9.web-identity.sig");
        mock.server().when(request().withMethod("POST").withPath("/")).respond(response().withStatusCode(200)
                .withHeader("content-type", "text/xml")
                .withBody("""
                        <AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                          <AssumeRoleWithWebIdentityResult>
                            <Credentials>
                              <AccessKeyId>ASIAWEBIDENTITYEXAMPLE</AccessKeyId>
                              <SecretAccessKey>%s</SecretAccessKey>
                              <SessionToken>%s</SessionToken>
                              <Expiration>%s</Expiration>
                            </Credentials>
                            <SubjectFromWebIdentityToken>system:serviceaccount:ci:agentd</SubjectFromWebIdentityToken>
                            <AssumedRoleUser>
                              <Arn>arn:aws:sts::123456789012:assumed-role/agentd/agentd-it</Arn>
                              <AssumedRoleId>AROAEXAMPLE:agentd-it</AssumedRoleId>
                            </AssumedRoleUser>
                          </AssumeRoleWithWebIdentityResult>
                          <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
                        </AssumeRoleWithWebIdentityResponse>
                        """.formatted(STS_SECRET, STS_TOKEN, Instant.now().plus(1, ChronoUnit.HOURS)
                        .truncatedTo(ChronoUnit.SECONDS))));
        Map<String, String> env = cleanEnv();
        env.put("AWS_WEB_IDENTITY_TOKEN_FILE", token.toString());
        env.put("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/agentd");
        env.put("AWS_ROLE_SESSION_NAME", "agentd-it");
        env.put("AWS_REGION", "eu-west-1");
        env.put("AWS_ENDPOINT_URL_STS", mock.baseUrl());
        daemon = start(env);

        String auth = promptAndAuthorization();
        assertTrue(auth.startsWith("AWS4-HMAC-SHA256 Credential=ASIAWEBIDENTITYEXAMPLE/"), auth);
        assertTrue(auth.contains("/eu-west-1/bedrock/aws4_request"), auth);
        assertEquals(STS_TOKEN, mock.server().retrieveRecordedRequests(converse())[0]
                .getFirstHeader("x-amz-security-token"));
        String sts = mock.server().retrieveRecordedRequests(request().withPath("/"))[0].getBodyAsString();
        assertTrue(sts.contains("Action=AssumeRoleWithWebIdentity") && sts.contains("web-identity.sig"), sts);
        assertNothingLeaks(STS_SECRET, STS_TOKEN);
    }

    @Test
    void anSsoSessionsCachedTokenIsTradedForRoleCredentialsAndTheProfileGivesTheRegion() throws Exception {
        Files.writeString(dir.resolve("aws-config"), """
                [profile dev]
                sso_session = corp
                sso_account_id = 111122223333
                sso_role_name = Developer
                region = ap-northeast-1

                [sso-session corp]
                sso_region = eu-west-1
                sso_start_url = https://corp.awsapps.com/start
                sso_registration_scopes = sso:account:access
                """);
        Path cache = Files.createDirectories(dir.resolve(".aws/sso/cache"));
        String name = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                .digest("corp".getBytes(StandardCharsets.UTF_8)));
        Files.writeString(cache.resolve(name + ".json"), """
                {"startUrl":"https://corp.awsapps.com/start","region":"eu-west-1","accessToken":"%s",
                 "expiresAt":"%s"}
                """.formatted(SSO_ACCESS_TOKEN, Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)));
        mock.server().when(request().withMethod("GET").withPath("/federation/credentials")).respond(response()
                .withStatusCode(200).withHeader("content-type", "application/json")
                .withBody("""
                        {"roleCredentials":{"accessKeyId":"ASIASSOEXAMPLE","secretAccessKey":"%s",
                          "sessionToken":"%s","expiration":%d}}
                        """.formatted(SSO_SECRET, SSO_TOKEN, Instant.now().plus(1, ChronoUnit.HOURS).toEpochMilli())));
        Map<String, String> env = cleanEnv();
        env.put("AWS_PROFILE", "dev");
        env.put("AWS_ENDPOINT_URL_SSO", mock.baseUrl());
        daemon = start(env);

        String auth = promptAndAuthorization();
        assertTrue(auth.startsWith("AWS4-HMAC-SHA256 Credential=ASIASSOEXAMPLE/"), auth);
        assertTrue(auth.contains("/ap-northeast-1/bedrock/aws4_request"), "the profile's region: " + auth);
        var exchange = mock.server().retrieveRecordedRequests(request().withPath("/federation/credentials"))[0];
        assertEquals(SSO_ACCESS_TOKEN, exchange.getFirstHeader("x-amz-sso_bearer_token"));
        assertEquals("Developer", exchange.getFirstQueryStringParameter("role_name"));
        assertNothingLeaks(SSO_SECRET, SSO_TOKEN, SSO_ACCESS_TOKEN);
    }

    @Test
    void withNoCredentialAnywhereTheErrorNamesEveryPlaceAndTheSessionGoesOn() throws Exception {
        daemon = start(cleanEnv());
        JsonNode listed = daemon.request(command("get_available_models", "m")).path("data").path("models");
        assertTrue(listed.toString().contains("\"id\":\"" + MODEL + "\""),
                "naming amazon-bedrock in models.json configures it, and it is listed: " + listed);
        assertFalse(listed.toString().contains("\"provider\":\"faux\""), "the embedded models stay out of the list");
        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode reply = daemon.awaitNth("agent_end", 1).path("messages").get(1);
        String error = reply.path("errorMessage").asText();
        assertTrue(error.startsWith("No AWS credentials for Bedrock. Looked in:"), reply.toString());
        for (String place : new String[] {"AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_WEB_IDENTITY_TOKEN_FILE",
                "profile 'default'", dir.resolve("aws-config").toString(), "EC2 instance metadata"}) {
            assertTrue(error.contains(place), place + " in " + error);
        }
        assertEquals(0, mock.server().retrieveRecordedRequests(converse()).length, "nothing sent unsigned");
        assertTrue(daemon.request(command("get_state", "s")).path("success").asBoolean());
    }
}
