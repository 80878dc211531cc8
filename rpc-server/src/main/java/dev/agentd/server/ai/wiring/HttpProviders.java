package dev.agentd.server.ai.wiring;

import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.anthropic.AnthropicProvider;
import dev.agentd.server.ai.gemini.GeminiProvider;
import dev.agentd.server.ai.bedrock.BedrockProvider;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.http.StreamingExchange;
import dev.agentd.server.ai.openai.OpenAiCompletionsProvider;
import dev.agentd.server.ai.responses.AzureResponsesProvider;
import dev.agentd.server.ai.responses.OpenAiResponsesProvider;
import dev.agentd.server.ai.vertex.VertexProvider;
import dev.agentd.server.ai.ReplyBound;
import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.runtime.Scheduler;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Wiring entry point: the two HTTP providers sharing one lazily created client. Nothing here
 * touches the network or builds the client; the first request does.
 */
public final class HttpProviders {
    private HttpProviders() {}

    /**
     * @param scheduler the daemon's scheduler (timeouts, message timestamps)
     * @param timeouts read per request, so settings changes apply to the next call
     */
    public static List<Provider> create(Scheduler scheduler, Supplier<ProviderTimeouts> timeouts) {
        return create(new LazyHttpClient(), scheduler, timeouts);
    }

    public static List<Provider> create(LazyHttpClient client, Scheduler scheduler,
            Supplier<ProviderTimeouts> timeouts) {
        return create(client, scheduler, timeouts, () -> ReplyBound.DEFAULT_MAX_REPLY_BYTES, OutputBackpressure.NONE);
    }

    /**
     * @param maxReplyBytes the reply size cap, read per request ({@link ReplyBound})
     * @param output the stdout gauge: time the run thread waits for the client is not provider silence
     */
    public static List<Provider> create(LazyHttpClient client, Scheduler scheduler,
            Supplier<ProviderTimeouts> timeouts, LongSupplier maxReplyBytes, OutputBackpressure output) {
        HttpReplyStreamer streamer = new HttpReplyStreamer(new StreamingExchange(client, scheduler, output), scheduler,
                timeouts, maxReplyBytes);
        return List.of(new AnthropicProvider(streamer), new OpenAiCompletionsProvider(streamer),
                new OpenAiResponsesProvider(streamer), new AzureResponsesProvider(streamer),
                new GeminiProvider(streamer),
                new BedrockProvider(streamer), new VertexProvider(streamer));
    }
}
