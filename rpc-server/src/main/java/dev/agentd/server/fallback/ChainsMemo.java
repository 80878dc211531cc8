package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Remembers the last canonicalization: error handling asks for the chains several times per
 * error, and the configured chains rarely change. The key is the chains' content in order, the
 * catalog's models, and which catalog providers have a credential now (ranking depends on it, and
 * checking a handful of providers is far cheaper than re-expanding), so equal input returns the
 * very same {@link Chains} object. Thread-safe: one immutable (key, value) pair swapped atomically.
 */
public final class ChainsMemo {
    private record Key(List<Map.Entry<String, List<String>>> chains, List<Model> models, Set<String> credentialed) {}

    private record Memo(Key key, Chains chains) {}

    private volatile Memo last;
    private final AtomicInteger computations = new AtomicInteger();

    public Chains get(Map<String, List<String>> raw, FallbackCatalog catalog, Predicate<String> hasCredential) {
        if (raw.isEmpty()) {
            // No chains configured (the common case): nothing to rank, so no credential look-ups, which
            // every turn start and end paid per catalog provider (bench/acp-sessions.sh, issue 26).
            return Chains.EMPTY;
        }
        Set<String> credentialed = new TreeSet<>();
        for (String provider : catalog.providers()) {
            if (hasCredential.test(provider)) {
                credentialed.add(provider);
            }
        }
        Key key = new Key(raw.entrySet().stream().map(e -> Map.entry(e.getKey(), List.copyOf(e.getValue()))).toList(),
                catalog.models(), credentialed);
        Memo memo = last;
        if (memo != null && memo.key().equals(key)) {
            return memo.chains();
        }
        computations.incrementAndGet();
        Chains chains = Chains.canonicalize(raw, catalog, credentialed::contains);
        last = new Memo(key, chains);
        return chains;
    }

    /** Drops the memo (the next call recomputes). */
    public void clear() {
        last = null;
    }

    /** How many canonicalizations ran (tests of the memo). */
    int computations() {
        return computations.get();
    }
}
