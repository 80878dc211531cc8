package dev.agentd.server.testing.mock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.Completion.completion;
import static org.mockserver.model.HttpLlmResponse.llmResponse;
import static org.mockserver.model.HttpRequest.request;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.mockserver.model.Provider;

/** MockServer runs beside our Jackson and answers with its own Anthropic stream encoding. */
class MockLlmTest {

    @Test
    void servesAnAnthropicStreamItEncodesItself() throws Exception {
        try (MockLlm mock = MockLlm.start()) {
            mock.server().when(request().withMethod("POST").withPath("/v1/messages"))
                    .respondWithLlm(llmResponse().withProvider(Provider.ANTHROPIC).withModel("claude-x")
                            .withCompletion(completion().withText("Hello from MockServer").streaming()));
            HttpResponse<String> reply = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(mock.baseUrl() + "/v1/messages")).POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"claude-x\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .header("content-type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, reply.statusCode());
            assertTrue(reply.body().contains("event: message_start"), reply.body());
            assertTrue(reply.body().contains("content_block_delta"), reply.body());
        }
    }
}
