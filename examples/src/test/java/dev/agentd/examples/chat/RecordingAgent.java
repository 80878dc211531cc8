package dev.agentd.examples.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Records the commands the chat sends, optionally passing them on to a real agent. Without one,
 * every command is answered with success at once (or with {@link #refuseNext}'s failure).
 */
final class RecordingAgent implements ChatAgent {
    private final ChatAgent delegate;
    private final List<String> calls = new ArrayList<>();
    private RuntimeException refusal;

    RecordingAgent() {
        this(null);
    }

    RecordingAgent(ChatAgent delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Void> prompt(String text) {
        return record("prompt " + text, () -> delegate.prompt(text));
    }

    @Override
    public CompletableFuture<Void> followUp(String text) {
        return record("followUp " + text, () -> delegate.followUp(text));
    }

    @Override
    public CompletableFuture<Void> abort() {
        return record("abort", () -> delegate.abort());
    }

    @Override
    public CompletableFuture<Void> abortRetry() {
        return record("abortRetry", () -> delegate.abortRetry());
    }

    synchronized void refuseNext(RuntimeException failure) {
        refusal = failure;
    }

    synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    private CompletableFuture<Void> record(String call, Supplier<CompletableFuture<Void>> send) {
        RuntimeException failure;
        synchronized (this) {
            calls.add(call);
            failure = refusal;
            refusal = null;
        }
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        return delegate == null ? CompletableFuture.completedFuture(null) : send.get();
    }
}
