package dev.agentd.server.testing;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.runtime.CancellationToken;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * A credential-requiring provider for session tests: replies from a queue of canned outcomes and
 * records the API key and context of every request.
 */
public final class ScriptedProvider implements Provider {
    public static final String API = "scripted";
    public static final Model MODEL = new Model("scripted-1", "Scripted", API, "scripted", "http://unused", false,
            List.of("text"), Model.Cost.FREE, 200_000, 8_192);

    private final Deque<ProviderError> outcomes = new ArrayDeque<>();
    private final List<StreamRequest> requests = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String api() {
        return API;
    }

    /** Queues a failure; an empty queue answers "ok". */
    public synchronized ScriptedProvider fail(ProviderError error) {
        outcomes.addLast(error);
        return this;
    }

    public List<String> apiKeys() {
        synchronized (requests) {
            return requests.stream().map(StreamRequest::apiKey).toList();
        }
    }

    public List<StreamRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        requests.add(request);
        ProviderError error;
        synchronized (this) {
            error = outcomes.pollFirst();
        }
        Model model = request.model();
        if (error != null) {
            return Replies.reply().from(model).error(error.message())
                    .errorFields(error.status(), error.type(), error.retryAfterMs(), error.shouldRetry()).build();
        }
        return Replies.reply().text("ok").from(model).build();
    }
}
