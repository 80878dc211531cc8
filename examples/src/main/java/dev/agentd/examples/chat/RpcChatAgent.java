package dev.agentd.examples.chat;

import dev.agentd.client.RpcClient;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.response.Response;
import java.util.concurrent.CompletableFuture;

/** The chat's link to a daemon through {@link RpcClient}: commands out, events and late failures in. */
public final class RpcChatAgent implements ChatAgent {
    private final RpcClient client;

    public RpcChatAgent(RpcClient client) {
        this.client = client;
    }

    /**
     * Feeds {@code controller} with the client's events and with late prompt failures (a prompt
     * accepted, then failed before its run: a second response, no events). Returns the unsubscribe action.
     */
    public static Runnable connect(RpcClient client, ChatController controller) {
        Runnable events = client.addListener(controller::onEvent);
        Runnable responses = client.addResponseListener(response -> {
            if (isPromptFailure(response)) {
                controller.onPromptFailed(response.error());
            }
        });
        return () -> {
            events.run();
            responses.run();
        };
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

    private static boolean isPromptFailure(Response response) {
        return "prompt".equals(response.command()) && !response.success();
    }
}
