package dev.agentd.server.testing.http;

import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.StreamListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records what a provider reports, in order; thread-safe so tests can poll it while streaming. */
public final class RecordingListener implements StreamListener {
    private final boolean partials;
    private final List<AssistantMessageEvent> events = Collections.synchronizedList(new ArrayList<>());
    private final List<Usage> usages = new ArrayList<>();
    private volatile int starts;
    private final List<RateLimits> rateLimits = Collections.synchronizedList(new ArrayList<>());

    public RecordingListener() {
        this(false);
    }

    public RecordingListener(boolean partials) {
        this.partials = partials;
    }

    @Override
    public boolean wantsPartials() {
        return partials;
    }

    @Override
    public void onStart(AgentMessage.Assistant partial) {
        starts++;
    }

    @Override
    public void onEvent(AssistantMessageEvent event, Usage usage) {
        synchronized (events) {
            events.add(event);
            usages.add(usage);
        }
    }

    /** The usage each event came with, in event order. */
    public List<Usage> usages() {
        synchronized (events) {
            return List.copyOf(usages);
        }
    }

    @Override
    public void onRateLimits(RateLimits limits) {
        rateLimits.add(limits);
    }

    /** The rate-limit figures each reply's headers carried. */
    public List<RateLimits> rateLimits() {
        synchronized (rateLimits) {
            return List.copyOf(rateLimits);
        }
    }

    public int starts() {
        return starts;
    }

    public List<AssistantMessageEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** Event types in order, e.g. {@code text_start}, {@code text_delta}. */
    public List<String> types() {
        return events().stream().map(AssistantMessageEvent::type).toList();
    }
}
