package dev.agentd.server.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The whole shared state as one mutable value: circuit records by selector, credential blocks
 * (until, epoch ms) by {@link CredentialIds#key}, and the generation counter for probe leases.
 * Not thread-safe: a store applies one operation to it inside its lock (the memory store) or
 * between reading and writing its file (the file store), so both stores share every rule. Every
 * changing operation first clamps every circuit to the configured bounds, then sweeps idle circuits
 * and ended blocks.
 */
final class StateBook {
    /**
     * The most circuit records (and, separately, credential blocks) kept: far more than the models
     * that can fail within one max cooldown (a chain configuration holds at most a few hundred
     * selectors), small enough that circuits.json stays under {@link FileState#MAX_FILE_BYTES} even
     * with every name at {@link StateJson#MAX_NAME_CHARS} (≈ 0.55 MiB).
     * Past it, the records that end first are dropped (a dropped circuit acts closed: one request).
     */
    static final int MAX_RECORDS = 512;

    final Map<String, CircuitRecord> circuits = new TreeMap<>();
    final Map<String, Long> blocks = new TreeMap<>();
    /** The last generation handed out; leases get strictly increasing ones. */
    long generation;

    Admission admit(String selector, String owner, long now, CircuitTimings timings) {
        sweep(now, timings);
        CircuitRecord record = circuits.get(selector);
        if (record == null) {
            return new Admission.Closed();
        }
        long next = record.grants(now) ? ++generation : generation;
        CircuitRecord.Admitted admitted = record.admit(now, owner, next, timings);
        circuits.put(selector, admitted.record());
        return admitted.admission();
    }

    long open(String selector, OptionalLong retryAfterMs, long now, CircuitTimings timings) {
        sweep(now, timings);
        CircuitRecord opened = circuits.getOrDefault(selector, CircuitRecord.NONE).opened(now, retryAfterMs, timings);
        circuits.put(selector, opened);
        return opened.openUntil() - now;
    }

    boolean close(String selector) {
        return circuits.remove(selector) != null;
    }

    boolean release(String selector, ProbeToken token) {
        CircuitRecord record = circuits.get(selector);
        if (record == null) {
            return false;
        }
        CircuitRecord released = record.released(token);
        circuits.put(selector, released);
        return released != record;
    }

    List<CircuitView> list(long now, CircuitTimings timings) {
        List<CircuitView> views = new ArrayList<>();
        circuits.forEach((selector, stored) -> {
            CircuitRecord record = stored.clamped(now, timings);
            if (!record.idle(now, timings)) {
                views.add(record.view(selector, now));
            }
        });
        return List.copyOf(views);
    }

    void block(String credential, long durationMs, long now) {
        sweepBlocks(now);
        blocks.merge(credential, CircuitRecord.saturatedAdd(now, Math.max(0, durationMs)), Math::max);
    }

    long blockedForMs(String credential, long now) {
        Long until = blocks.get(credential);
        return until == null || until <= now ? 0 : until - now;
    }

    /** Clamps every record (CircuitRecord's clamp rule: nothing is trusted past now + M or L), drops idle ones. */
    private void sweep(long now, CircuitTimings timings) {
        circuits.replaceAll((selector, record) -> record.clamped(now, timings));
        circuits.values().removeIf(record -> record.idle(now, timings));
        sweepBlocks(now);
        if (circuits.size() > MAX_RECORDS) {
            keepLatest(circuits, (a, b) -> Long.compare(ends(b), ends(a)));
        }
    }

    private void sweepBlocks(long now) {
        blocks.values().removeIf(until -> until <= now);
        if (blocks.size() > MAX_RECORDS) {
            keepLatest(blocks, (a, b) -> Long.compare(b, a));
        }
    }

    /** When a record stops mattering: its cooling or its lease, whichever ends later. */
    private static long ends(CircuitRecord record) {
        return Math.max(record.openUntil(), record.lease().map(CircuitRecord.Lease::expiresAt).orElse(0L));
    }

    /** Drops all but the {@link #MAX_RECORDS} values that come first in {@code latestFirst}. */
    private static <V> void keepLatest(Map<String, V> records, java.util.Comparator<V> latestFirst) {
        List<Map.Entry<String, V>> entries = new ArrayList<>(records.entrySet());
        entries.sort(Map.Entry.comparingByValue(latestFirst));
        entries.subList(MAX_RECORDS, entries.size()).forEach(entry -> records.remove(entry.getKey()));
    }
}
