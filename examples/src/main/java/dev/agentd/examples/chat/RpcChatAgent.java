package dev.agentd.examples.chat;

import dev.agentd.client.RpcClient;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.model.StreamingBehavior;
import java.util.concurrent.CompletableFuture;

/** The chat's link to a daemon through {@link RpcClient}: commands out, events in. */
public final class RpcChatAgent implements ChatAgent {
    private final RpcClient client;

    public RpcChatAgent(RpcClient client) {
        this.client = client;
    }

    /**
     * Feeds {@code controller} with the client's events (a failed prompt is the prompt's own
     * response, reported through its future). Returns the unsubscribe action.
     */
    public static Runnable connect(RpcClient client, ChatController controller) {
        return client.addListener(controller::onEvent);
    }

    @Override
    public CompletableFuture<Void> prompt(String text) {
        return client.requestAsync(new Command.Prompt(text), Void.class);
    }

    @Override
    public CompletableFuture<Void> followUp(String text) {
        // A prompt with streamingBehavior rather than follow_up: if the run ended in the meantime,
        // the daemon starts a new one instead of leaving the text queued with nothing running.
        return client.requestAsync(new Command.Prompt(text, null, StreamingBehavior.FOLLOW_UP), Void.class);
    }

    @Override
    public CompletableFuture<Void> abort() {
        return client.requestAsync(new Command.Abort(), Void.class);
    }

    @Override
    public CompletableFuture<Void> abortRetry() {
        return client.requestAsync(new Command.AbortRetry(), Void.class);
    }
}
