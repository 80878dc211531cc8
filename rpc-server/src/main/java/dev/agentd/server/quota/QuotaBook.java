package dev.agentd.server.quota;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.server.ai.StreamListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * One session's latest rate-limit figures per selector ({@code get_state.data.rateLimits}) and
 * the thresholds each has announced. Thread-safe: replies arrive on the streaming thread (and a
 * probe's on its own), {@code get_state} reads on the command reader.
 */
public final class QuotaBook {
    /** Selectors kept; a session calls a handful (its model, fallbacks, probes). */
    static final int MAX_SELECTORS = 64;

    private final Consumer<AgentEvent> emit;
    private final Map<String, Entry> bySelector = new LinkedHashMap<>();

    private record Entry(RateLimits limits, int level) {}

    /** @param emit publishes {@code rate_limit_update} on the session's stream */
    public QuotaBook(Consumer<AgentEvent> emit) {
        this.emit = emit;
    }

    /** A reply of {@code selector} carried {@code limits}: kept, and a crossed threshold announced. */
    public void record(String selector, RateLimits limits) {
        RateLimits named = limits.withSelector(selector);
        Double crossed;
        synchronized (bySelector) {
            Entry before = bySelector.remove(selector);
            int level = before == null ? 0 : before.level();
            QuotaRules.Step step = named.utilization() == null ? new QuotaRules.Step(level, null)
                    : QuotaRules.step(level, named.utilization());
            if (bySelector.size() >= MAX_SELECTORS) {
                bySelector.remove(bySelector.keySet().iterator().next()); // the least recently updated
            }
            bySelector.put(selector, new Entry(named, step.level()));
            crossed = step.crossed();
        }
        if (crossed != null) {
            emit.accept(new AgentEvent.RateLimitUpdate(selector, crossed, named.utilization(), named));
        }
    }

    /** Every selector's latest figures, least recently updated first. */
    public List<RateLimits> snapshot() {
        synchronized (bySelector) {
            List<RateLimits> all = new ArrayList<>(bySelector.size());
            bySelector.values().forEach(entry -> all.add(entry.limits()));
            return all;
        }
    }

    /** The latest figures of {@code selector}, or null. */
    public RateLimits latest(String selector) {
        synchronized (bySelector) {
            Entry entry = bySelector.get(selector);
            return entry == null ? null : entry.limits();
        }
    }

    /** The current utilization of {@code selector} ({@link QuotaRules#current}); empty when unknown. */
    public OptionalDouble utilization(String selector, long nowMs) {
        Entry entry;
        synchronized (bySelector) {
            entry = bySelector.get(selector);
        }
        return entry == null ? OptionalDouble.empty() : QuotaRules.current(entry.limits(), nowMs);
    }

    /** {@code listener}, with the reply's rate-limit figures recorded for {@code selector}. */
    public StreamListener tap(StreamListener listener, String selector) {
        return new StreamListener() {
            @Override
            public boolean wantsPartials() {
                return listener.wantsPartials();
            }

            @Override
            public void onStart(AgentMessage.Assistant partial) {
                listener.onStart(partial);
            }

            @Override
            public void onEvent(AssistantMessageEvent event, Usage usage) {
                listener.onEvent(event, usage);
            }

            @Override
            public void onRateLimits(RateLimits limits) {
                record(selector, limits);
                listener.onRateLimits(limits);
            }
        };
    }
}
