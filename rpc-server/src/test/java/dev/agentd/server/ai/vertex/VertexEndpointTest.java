package dev.agentd.server.ai.vertex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.ai.http.RequestHeaders;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Vertex AI's URL rules: publisher by id, location, host, project, method path. */
class VertexEndpointTest {
    private static UnaryOperator<String> env(Map<String, String> vars) {
        return vars::get;
    }

    @Test
    void claudeIdsAreAnthropicsAndEveryOtherIdIsGoogles() {
        assertEquals(VertexEndpoint.Publisher.ANTHROPIC, VertexEndpoint.publisher("claude-sonnet-4-5@20250929"));
        assertEquals(VertexEndpoint.Publisher.ANTHROPIC, VertexEndpoint.publisher("claude-opus-4-1"));
        assertEquals(VertexEndpoint.Publisher.ANTHROPIC, VertexEndpoint.publisher("Claude-3-5-haiku"));
        assertEquals(VertexEndpoint.Publisher.GOOGLE, VertexEndpoint.publisher("gemini-2.5-pro"));
        assertEquals(VertexEndpoint.Publisher.GOOGLE, VertexEndpoint.publisher("my-claude-tune"));
    }

    @Test
    void globalAndRegionalHostsAndTheTemplateOfPisCatalog() {
        assertEquals("https://aiplatform.googleapis.com", VertexEndpoint.baseUrl(null, "global"));
        assertEquals("https://us-east5-aiplatform.googleapis.com", VertexEndpoint.baseUrl("", "us-east5"));
        assertEquals("https://europe-west4-aiplatform.googleapis.com",
                VertexEndpoint.baseUrl("https://{location}-aiplatform.googleapis.com", "europe-west4"));
        assertEquals("https://aiplatform.googleapis.com",
                VertexEndpoint.baseUrl("https://{location}-aiplatform.googleapis.com", "global"));
        assertEquals("http://127.0.0.1:9/proxy", VertexEndpoint.baseUrl("http://127.0.0.1:9/proxy", "us-east5"));
    }

    @Test
    void geminiAndClaudePathsWithProjectLocationAndVersionedIds() {
        assertEquals("/v1/projects/my-proj/locations/global/publishers/google/models/gemini-2.5-pro"
                + ":streamGenerateContent?alt=sse",
                VertexEndpoint.path("https://aiplatform.googleapis.com", "my-proj", "global", "gemini-2.5-pro"));
        assertEquals("/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929"
                + ":streamRawPredict", VertexEndpoint.path("https://us-east5-aiplatform.googleapis.com/", "my-proj",
                "us-east5", "claude-sonnet-4-5@20250929"));
    }

    @Test
    void aBaseUrlNamingAVersionGetsNoSecondOneAndPiecesAreEncoded() {
        assertEquals("/projects/p/locations/global/publishers/google/models/gemini-2.5-flash"
                + ":streamGenerateContent?alt=sse",
                VertexEndpoint.path("http://localhost:1080/v1", "p", "global", "gemini-2.5-flash"));
        assertEquals("/projects/p/locations/global/publishers/anthropic/models/claude-x:streamRawPredict",
                VertexEndpoint.path("http://localhost:1080/v1beta1/", "p", "global", "claude-x"));
        assertEquals("/v1/projects/a%2Fb%3Fc/locations/global/publishers/google/models/x%20y%2F..%3Fz"
                + ":streamGenerateContent?alt=sse",
                VertexEndpoint.path("http://proxy", "a/b?c", "global", "x y/..?z"));
    }

    @Test
    void withoutAProjectAnApiKeyCallUsesExpressModesPath() {
        assertEquals("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                VertexEndpoint.path("https://aiplatform.googleapis.com", null, "global", "gemini-2.5-flash"));
    }

    @Test
    void locationFromTheEnvironmentThenARegionalBaseUrlThenGlobal() throws Exception {
        assertEquals("europe-west1", VertexEndpoint.location(env(Map.of("GOOGLE_CLOUD_LOCATION", " europe-west1 ")),
                "https://us-east5-aiplatform.googleapis.com"));
        assertEquals("us-east5", VertexEndpoint.location(env(Map.of()), "https://us-east5-aiplatform.googleapis.com"));
        assertEquals("global", VertexEndpoint.location(env(Map.of()), "https://{location}-aiplatform.googleapis.com"));
        assertEquals("global", VertexEndpoint.location(env(Map.of()), null));
        assertEquals("global", VertexEndpoint.location(env(Map.of()), "http://127.0.0.1:1080"));
    }

    @Test
    void aLocationThatCouldChangeTheHostIsRefused() {
        RequestHeaders.InvalidRequestException e = assertThrows(RequestHeaders.InvalidRequestException.class,
                () -> VertexEndpoint.location(env(Map.of("GOOGLE_CLOUD_LOCATION", "evil.example.com/x")), null));
        assertTrue(e.getMessage().startsWith("GOOGLE_CLOUD_LOCATION is not a Vertex AI location"), e.getMessage());
    }

    @Test
    void projectFromGoogleCloudProjectThenGcloudProject() {
        assertEquals("a", VertexEndpoint.projectFromEnv(env(Map.of("GOOGLE_CLOUD_PROJECT", "a", "GCLOUD_PROJECT", "b"))));
        assertEquals("b", VertexEndpoint.projectFromEnv(env(Map.of("GOOGLE_CLOUD_PROJECT", " ", "GCLOUD_PROJECT", "b"))));
        assertNull(VertexEndpoint.projectFromEnv(env(Map.of())));
    }
}
