package dev.agentd.server.fallback;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One session's cooling selectors: base selector → expiry on the caller's MONOTONIC clock (every
 * method takes {@code nowMs} from it, so wall-clock jumps neither shorten nor extend a cooldown).
 * Runtime only, never persisted. Keys are compared ignoring case. The controller may store other
 * namespaced keys here too (e.g. {@code account:<provider>}) — the map does not interpret them.
 * Synchronized: the turn thread writes, {@code get_fallback_state} reads.
 */
public final class Cooldowns {
    /** A cooling selector as {@code get_fallback_state} shows it. */
    public record Entry(String selector, long remainingMs) {}

    private final RandomGenerator random;
    private final Map<String, Expiry> expiries = new HashMap<>();

    private record Expiry(String selector, long untilMs) {}

    public Cooldowns(RandomGenerator random) {
        this.random = random;
    }

    /**
     * Cools {@code selector} from {@code nowMs}: for {@code retryAfterMs} when it is positive,
     * else for the cause's duration. A later note replaces an earlier one. Returns the duration.
     */
    public synchronized long note(String selector, CooldownCause cause, long retryAfterMs, long nowMs) {
        long duration = retryAfterMs > 0 ? retryAfterMs : cause.durationMs(random);
        long until = duration > Long.MAX_VALUE - nowMs ? Long.MAX_VALUE : nowMs + duration;
        expiries.put(key(selector), new Expiry(selector, until));
        return duration;
    }

    /** Whether {@code selector} is cooling at {@code nowMs}; an expired entry is dropped. */
    public synchronized boolean isCooling(String selector, long nowMs) {
        return remainingMs(selector, nowMs) > 0;
    }

    /** Milliseconds left, 0 when not cooling. */
    public synchronized long remainingMs(String selector, long nowMs) {
        String key = key(selector);
        Expiry expiry = expiries.get(key);
        if (expiry == null) {
            return 0;
        }
        if (nowMs >= expiry.untilMs()) {
            expiries.remove(key);
            return 0;
        }
        return expiry.untilMs() - nowMs;
    }

    public synchronized void clear(String selector) {
        expiries.remove(key(selector));
    }

    /** The cooling selectors at {@code nowMs}, longest wait first (expired ones are dropped). */
    public synchronized List<Entry> snapshot(long nowMs) {
        List<Entry> entries = new ArrayList<>();
        for (Iterator<Expiry> it = expiries.values().iterator(); it.hasNext();) {
            Expiry expiry = it.next();
            if (nowMs >= expiry.untilMs()) {
                it.remove();
            } else {
                entries.add(new Entry(expiry.selector(), expiry.untilMs() - nowMs));
            }
        }
        entries.sort(Comparator.comparingLong(Entry::remainingMs).reversed().thenComparing(Entry::selector));
        return List.copyOf(entries);
    }

    private static String key(String selector) {
        return selector.toLowerCase(Locale.ROOT);
    }
}
