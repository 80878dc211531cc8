package dev.agentd.server.state;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * One circuit breaker's state and its pure transitions (FALLBACK §6). Every store keeps one such
 * record per base selector and applies these functions inside its one atomic read-modify-write;
 * the Redis store mirrors them in Lua, so the rules are spelled out here exactly. All times are
 * epoch milliseconds of the store's clock; C = {@link CircuitTimings#cooldownMs}, M =
 * {@link CircuitTimings#maxCooldownMs}, L = {@link CircuitTimings#leaseMs}.
 *
 * <ul>
 *   <li><b>open</b> ({@link #opened}): {@code n = consecutiveOpens + 1};
 *       {@code cool = min(C·2^(n−1), M)} (no overflow: the doubling stops at M);
 *       {@code hinted = now + retryAfter} when a Retry-After above 0 is given, else 0;
 *       {@code floor = max(hinted, retryFloorUntil > now ? retryFloorUntil : 0)} (an outstanding
 *       floor survives a later hintless failure); {@code openUntil = max(now + cool, min(floor, now + M))};
 *       the record keeps {@code floor} as its {@code retryFloorUntil} and loses its lease. A missing
 *       record opens as {@link #NONE} (n = 1).</li>
 *   <li><b>admit</b> ({@link #admit}): no record → closed; {@code now < openUntil} → open for
 *       {@code openUntil − now}; a live lease ({@code now < expiresAt}) held by another owner →
 *       open for {@code expiresAt − now}; a live lease of the same owner → that same token (its
 *       expiry is not extended); otherwise (no lease, or an expired one) a new lease for
 *       {@code owner} with the store's next generation, expiring at {@code now + L}.</li>
 *   <li><b>release</b> ({@link #released}): the lease ends only when owner AND generation both
 *       match the token; a stale token never ends a later lease.</li>
 *   <li><b>close</b>: the store deletes the record (the doubling resets).</li>
 *   <li><b>idle</b> ({@link #idle}, the sweep): no live lease and {@code now ≥ openUntil + M};
 *       stores drop idle records on every write.</li>
 *   <li><b>view</b> ({@link #view}): cooling → OPEN with {@code openUntil − now}; else HALF_OPEN
 *       with the live lease's remaining time (0 when the probe is free).</li>
 *   <li><b>clamp</b> ({@link #clamped}), applied to every record a store reads before any other
 *       rule: {@code openUntil} and {@code retryFloorUntil} at most {@code now + M}, a lease's
 *       {@code expiresAt} at most {@code now + L}. A record from a clock that ran ahead (a VM
 *       resumed with a wrong clock, later corrected) or from any other writer can then keep a
 *       model skipped for at most M; the store writes the clamped record back, so the bound does
 *       not move on with every read.</li>
 * </ul>
 *
 * @param openUntil end of the cooling period
 * @param retryFloorUntil the latest Retry-After deadline seen (0 = none)
 * @param consecutiveOpens opens since the last close
 * @param lease the half-open probe lease, if one was granted since the last open
 */
public record CircuitRecord(long openUntil, long retryFloorUntil, int consecutiveOpens, Optional<Lease> lease) {
    /** No record: closed, nothing to double. */
    public static final CircuitRecord NONE = new CircuitRecord(0, 0, 0, Optional.empty());

    /** The probe lease. */
    public record Lease(String owner, long generation, long expiresAt) {
        public ProbeToken token() {
            return new ProbeToken(owner, generation);
        }

        boolean liveAt(long now) {
            return now < expiresAt;
        }
    }

    /** An admission and the record to store afterwards. */
    public record Admitted(Admission admission, CircuitRecord record) {}

    public CircuitRecord {
        lease = lease == null ? Optional.empty() : lease;
    }

    /** The record after a failure at {@code now}: open (again), doubled, floored by Retry-After. */
    public CircuitRecord opened(long now, OptionalLong retryAfterMs, CircuitTimings timings) {
        int n = consecutiveOpens == Integer.MAX_VALUE ? consecutiveOpens : consecutiveOpens + 1;
        long max = Math.max(0, timings.maxCooldownMs());
        long cool = Math.max(0, timings.cooldownMs());
        for (int i = 1; i < n && cool < max; i++) {
            cool = cool > max / 2 ? max : cool * 2;
        }
        cool = Math.min(cool, max);
        long hinted = retryAfterMs.isPresent() && retryAfterMs.getAsLong() > 0
                ? saturatedAdd(now, retryAfterMs.getAsLong()) : 0;
        long floor = Math.max(hinted, retryFloorUntil > now ? retryFloorUntil : 0);
        long until = Math.max(saturatedAdd(now, cool), Math.min(floor, saturatedAdd(now, max)));
        return new CircuitRecord(until, floor, n, Optional.empty());
    }

    /**
     * Whether {@code owner} may send at {@code now}. {@code nextGeneration} is used only when a new
     * lease is granted ({@link #grants} tells the store beforehand whether to spend one).
     */
    public Admitted admit(long now, String owner, long nextGeneration, CircuitTimings timings) {
        if (now < openUntil) {
            return new Admitted(new Admission.Open(openUntil - now), this);
        }
        if (lease.isPresent() && lease.get().liveAt(now)) {
            Lease held = lease.get();
            return held.owner().equals(owner) ? new Admitted(new Admission.Probe(held.token()), this)
                    : new Admitted(new Admission.Open(held.expiresAt() - now), this);
        }
        Lease granted = new Lease(owner, nextGeneration, saturatedAdd(now, Math.max(0, timings.leaseMs())));
        return new Admitted(new Admission.Probe(granted.token()),
                new CircuitRecord(openUntil, retryFloorUntil, consecutiveOpens, Optional.of(granted)));
    }

    /** Whether {@link #admit} at {@code now} grants a new lease (and so needs a fresh generation). */
    public boolean grants(long now) {
        return now >= openUntil && lease.map(held -> !held.liveAt(now)).orElse(true);
    }

    /** The record after {@code token} gives its lease back; unchanged unless the token is the current one. */
    public CircuitRecord released(ProbeToken token) {
        return lease.filter(held -> held.token().equals(token)).isPresent()
                ? new CircuitRecord(openUntil, retryFloorUntil, consecutiveOpens, Optional.empty()) : this;
    }

    /** This record bounded by what agentd itself could have written at {@code now} (the clamp rule above). */
    public CircuitRecord clamped(long now, CircuitTimings timings) {
        long maxUntil = saturatedAdd(now, Math.max(0, timings.maxCooldownMs()));
        long maxLease = saturatedAdd(now, Math.max(0, timings.leaseMs()));
        Optional<Lease> boundedLease = lease.map(held -> held.expiresAt() <= maxLease ? held
                : new Lease(held.owner(), held.generation(), maxLease));
        if (openUntil <= maxUntil && retryFloorUntil <= maxUntil && boundedLease.equals(lease)) {
            return this;
        }
        return new CircuitRecord(Math.min(openUntil, maxUntil), Math.min(retryFloorUntil, maxUntil), consecutiveOpens,
                boundedLease);
    }

    /** Whether the sweep drops this record at {@code now}. */
    public boolean idle(long now, CircuitTimings timings) {
        boolean leased = lease.map(held -> held.liveAt(now)).orElse(false);
        return !leased && now >= saturatedAdd(openUntil, Math.max(0, timings.maxCooldownMs()));
    }

    /** How {@code get_fallback_state} shows this record at {@code now}. */
    public CircuitView view(String selector, long now) {
        if (now < openUntil) {
            return new CircuitView(selector, CircuitView.State.OPEN, openUntil - now);
        }
        long leaseLeft = lease.filter(held -> held.liveAt(now)).map(held -> held.expiresAt() - now).orElse(0L);
        return new CircuitView(selector, CircuitView.State.HALF_OPEN, leaseLeft);
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
