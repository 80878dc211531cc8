package dev.agentd.server.state.redis;

import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.Circuits;
import dev.agentd.server.state.CredentialBlocks;
import dev.agentd.server.state.CredentialId;
import dev.agentd.server.state.ProbeToken;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.state.StoreStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The fleet's shared state in Redis, with a process-local {@link SharedState} standing in while
 * Redis is unreachable ({@link RedisConnections} says when). Every operation is one Lua script that reads the
 * server's {@code TIME}, so machines with skewed clocks agree and two machines never both get a
 * probe lease. What is written, under the key prefix (default {@code agentd:}):
 * <ul>
 *   <li>{@code <prefix>circuit:<provider/id>}: a hash {@code openUntil}, {@code opens},
 *       {@code floor}, {@code gen}, {@code leaseOwner}, {@code leaseUntil} (epoch ms of the
 *       server), expiring when the record turns idle;
 *   <li>{@code <prefix>circuits}: the set of selectors with a record, for {@link Circuits#list};
 *   <li>{@code <prefix>generation}: the counter that makes every opening's probe tokens unique;
 *   <li>{@code <prefix>cred:<provider>:<keyed hash>}: the epoch ms a usage-limit block ends,
 *       expiring then. Never a key, never a password.
 * </ul>
 * State written locally during an outage stays local: it is not replayed into Redis.
 */
public final class RedisState implements SharedState {
    static final long FIRST_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;

    private final String prefix;
    private final SharedState local;
    private final RedisConnections link;
    private final Circuits circuits = new RedisCircuits();
    private final CredentialBlocks blocks = new RedisBlocks();

    /**
     * @param local the state to use while Redis is unreachable; closed with this one
     * @param scheduler schedules the reconnect attempts (they run on a thread of this state)
     */
    public RedisState(RedisEndpoint endpoint, String keyPrefix, long connectTimeoutMs, long commandTimeoutMs,
            SharedState local, Scheduler scheduler) {
        this(endpoint, keyPrefix, connectTimeoutMs, commandTimeoutMs, local, scheduler, FIRST_BACKOFF_MS,
                MAX_BACKOFF_MS);
    }

    RedisState(RedisEndpoint endpoint, String keyPrefix, long connectTimeoutMs, long commandTimeoutMs,
            SharedState local, Scheduler scheduler, long firstBackoffMs, long maxBackoffMs) {
        this.prefix = keyPrefix;
        this.local = local;
        this.link = new RedisConnections(endpoint, connectTimeoutMs, commandTimeoutMs, scheduler, firstBackoffMs, maxBackoffMs);
    }

    /** The Redis store {@code config} describes; connects on first use. */
    public static RedisState open(RedisConfig config, SharedState local, Scheduler scheduler) {
        return new RedisState(config.endpoint(), config.keyPrefix(), config.connectTimeoutMs(),
                config.commandTimeoutMs(), local, scheduler);
    }

    @Override
    public Circuits circuits() {
        return circuits;
    }

    @Override
    public CredentialBlocks credentialBlocks() {
        return blocks;
    }

    @Override
    public StoreStatus status() {
        Optional<String> problem = link.problem();
        return new StoreStatus("redis", problem.isEmpty(), problem);
    }

    /** How many outages were warned about (one warning each). */
    int warningsLogged() {
        return link.warnings();
    }

    @Override
    public void close() {
        link.close();
        local.close();
    }

    private String circuitKey(String selector) {
        return prefix + "circuit:" + selector;
    }

    private String index() {
        return prefix + "circuits";
    }

    private final class RedisCircuits implements Circuits {
        @Override
        public Admission admit(String selector, String owner, CircuitTimings timings) {
            return link.eval(Script.ADMIT, List.of(circuitKey(selector), index()),
                    List.of(selector, owner, ms(timings.maxCooldownMs()), ms(timings.leaseMs())),
                    reply -> admission(reply, owner))
                    .orElseGet(() -> local.circuits().admit(selector, owner, timings));
        }

        @Override
        public long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
            long hint = retryAfterMs.isPresent() ? Math.max(0, retryAfterMs.getAsLong()) : 0;
            return link.eval(Script.OPEN, List.of(circuitKey(selector), prefix + "generation", index()),
                    List.of(selector, ms(timings.cooldownMs()), ms(timings.maxCooldownMs()), ms(hint)),
                    RedisState::integer)
                    .orElseGet(() -> local.circuits().open(selector, retryAfterMs, timings));
        }

        @Override
        public void close(String selector) {
            if (link.eval(Script.CLOSE, List.of(circuitKey(selector), index()), List.of(selector),
                    RedisState::integer).isEmpty()) {
                local.circuits().close(selector);
            }
        }

        @Override
        public boolean release(String selector, ProbeToken token) {
            return link.eval(Script.RELEASE, List.of(circuitKey(selector), index()),
                    List.of(selector, token.owner(), Long.toString(token.generation())),
                    reply -> integer(reply) == 1)
                    .orElseGet(() -> local.circuits().release(selector, token));
        }

        @Override
        public List<CircuitView> list(CircuitTimings timings) {
            return link.eval(Script.LIST, List.of(index()), List.of(prefix + "circuit:", ms(timings.maxCooldownMs()),
                    ms(Math.max(0, timings.leaseMs()))),
                    RedisState::views)
                    .orElseGet(() -> local.circuits().list(timings));
        }
    }

    private final class RedisBlocks implements CredentialBlocks {
        @Override
        public void block(CredentialId id, long durationMs) {
            if (link.eval(Script.BLOCK, List.of(credentialKey(id)), List.of(ms(Math.max(0, durationMs))),
                    RedisState::integer).isEmpty()) {
                local.credentialBlocks().block(id, durationMs);
            }
        }

        @Override
        public long blockedForMs(CredentialId id) {
            return link.eval(Script.BLOCKED, List.of(credentialKey(id)), List.of(), RedisState::integer)
                    .orElseGet(() -> local.credentialBlocks().blockedForMs(id));
        }
    }

    private String credentialKey(CredentialId id) {
        return prefix + "cred:" + id.provider() + ":" + id.hash();
    }

    private static String ms(long value) {
        return Long.toString(value);
    }

    private static long integer(Reply reply) throws RespProtocolException {
        if (reply instanceof Reply.Int number) {
            return number.value();
        }
        throw new RespProtocolException("a script answered " + reply.getClass().getSimpleName() + ", not an integer");
    }

    private static Admission admission(Reply reply, String owner) throws RespProtocolException {
        if (reply instanceof Reply.Array array && !array.items().isEmpty()) {
            long kind = integer(array.items().get(0));
            if (kind == 0) {
                return new Admission.Closed();
            }
            if (array.items().size() == 2) {
                long value = integer(array.items().get(1));
                if (kind == 1) {
                    return new Admission.Open(Math.max(0, value));
                }
                if (kind == 2) {
                    return new Admission.Probe(new ProbeToken(owner, value));
                }
            }
        }
        throw new RespProtocolException("admit answered an unexpected reply");
    }

    private static List<CircuitView> views(Reply reply) throws RespProtocolException {
        if (!(reply instanceof Reply.Array array) || array.items().size() % 3 != 0) {
            throw new RespProtocolException("list answered an unexpected reply");
        }
        List<CircuitView> views = new ArrayList<>();
        for (int i = 0; i < array.items().size(); i += 3) {
            if (!(array.items().get(i) instanceof Reply.Bulk selector)) {
                throw new RespProtocolException("list answered an unexpected reply");
            }
            CircuitView.State state = integer(array.items().get(i + 1)) == 1 ? CircuitView.State.OPEN
                    : CircuitView.State.HALF_OPEN;
            views.add(new CircuitView(selector.text(), state, Math.max(0, integer(array.items().get(i + 2)))));
        }
        return List.copyOf(views);
    }
}
