package dev.agentd.bench;

import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.CredentialId;
import dev.agentd.server.state.ProbeToken;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.state.StoreStatus;
import dev.agentd.server.state.redis.RedisEndpoint;
import dev.agentd.server.state.redis.RedisState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Latency of the Redis store's operations against a local redis-server (bench/redis.sh starts
 * one): the first call of a fresh process (connect, NOSCRIPT, EVAL), then each operation
 * {@code --ops} times after a warm-up. Each operation is one round trip (EVALSHA), which the
 * script checks against the server's command counters. A local stand-in that Redis never reaches
 * makes the whole time Redis's. Prints markdown table rows in µs.
 */
public final class RedisBench {
    private static final CircuitTimings TIMINGS = new CircuitTimings(60_000, 600_000, 300_000);

    private RedisBench() {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        RedisEndpoint endpoint = RedisEndpoint.parse(args.get("url", "redis://127.0.0.1:6379/0"));
        int ops = args.integer("ops", 5000);
        try (SystemScheduler scheduler = new SystemScheduler();
                RedisState state = new RedisState(endpoint, "agentd-bench:", 200, 200, new Unreached(), scheduler)) {
            CredentialId free = new CredentialId("bench", "ab".repeat(32));
            long start = System.nanoTime();
            state.circuits().admit("bench/closed", "s1", TIMINGS);
            row("first call of the process (class loading, connect, NOSCRIPT + EVAL)", List.of(Stats.ms(System.nanoTime() - start) * 1000));

            measure("admit, circuit closed (happy path)", ops,
                    () -> state.circuits().admit("bench/closed", "s1", TIMINGS));
            measure("blockedForMs, credential free (happy path)", ops,
                    () -> state.credentialBlocks().blockedForMs(free));
            measure("prompt's happy path: blockedForMs + admit", ops, () -> {
                state.credentialBlocks().blockedForMs(free);
                state.circuits().admit("bench/closed", "s1", TIMINGS);
            });
            measure("open (re-open, doubling)", ops,
                    () -> state.circuits().open("bench/open", OptionalLong.empty(), TIMINGS));
            measure("admit, circuit open", ops, () -> state.circuits().admit("bench/open", "s1", TIMINGS));
            measure("block a credential", ops, () -> state.credentialBlocks().block(free, 1));
            measure("list (get_fallback_state, 1 circuit)", ops, () -> state.circuits().list(TIMINGS));
            state.circuits().close("bench/open");
            if (!state.status().shared()) {
                throw new IllegalStateException("Redis was not reachable: " + state.status().warning().orElse(""));
            }
        }
    }

    private static void measure(String name, int ops, Runnable op) {
        for (int i = 0; i < Math.min(ops, 2000); i++) {
            op.run();
        }
        List<Double> micros = new ArrayList<>(ops);
        for (int i = 0; i < ops; i++) {
            long start = System.nanoTime();
            op.run();
            micros.add((System.nanoTime() - start) / 1e3);
        }
        row(name, micros);
    }

    private static void row(String name, List<Double> micros) {
        Stats stats = new Stats(micros);
        System.out.println("| " + name + " | " + stats.count() + " | " + Stats.f0(stats.median()) + " | "
                + Stats.f0(stats.percentile(99)) + " | " + Stats.f0(stats.max()) + " |");
    }

    /** The local stand-in: the benchmark fails if Redis ever falls back to it. */
    private static final class Unreached implements SharedState.SelfContained {
        @Override
        public StoreStatus status() {
            return new StoreStatus("memory", false, Optional.empty());
        }

        @Override
        public Admission admit(String selector, String owner, CircuitTimings timings) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public void close(String selector) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public boolean release(String selector, ProbeToken token) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public List<CircuitView> list(CircuitTimings timings) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public void block(CredentialId id, long durationMs) {
            throw new IllegalStateException("fell back to local state");
        }

        @Override
        public long blockedForMs(CredentialId id) {
            throw new IllegalStateException("fell back to local state");
        }
    }
}
