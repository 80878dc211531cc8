package dev.agentd.server.auth;

import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.state.CredentialBlocks;
import dev.agentd.server.state.CredentialId;
import dev.agentd.server.state.CredentialIds;
import dev.agentd.server.state.MemoryState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import dev.agentd.server.runtime.ProviderVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Credentials per provider (SPEC §2, §5.6), resolved in order: {@code --api-key} (for the provider
 * of the model chosen at startup), {@code auth.json}, the provider's environment variable, then a
 * {@code models.json} {@code apiKey}. {@code auth.json} may list several credentials for one
 * provider: selection is sticky per session (start at FNV-1a(sessionId) mod n, skip blocked ones)
 * and {@link #markUsageLimitReached} blocks the session's current credential so the next request
 * uses another. Keys never appear in logs or exception messages. The blocks live in a
 * {@link CredentialBlocks} store ({@link #shareBlocks}: the agent directory's shared state, so a
 * credential one agentd blocked is skipped by every other on that directory), named by
 * {@link CredentialIds} over the {@code auth.json} entry as written (a literal key, an env var
 * name or a command: the same file gives every process the same names, and no key is resolved
 * just to name it).
 */
public final class AuthStore {
    private static final Logger LOG = LoggerFactory.getLogger(AuthStore.class);
    /** SPEC §5.6: how long a credential stays blocked when the server gave no hint. */
    public static final long DEFAULT_BLOCK_MS = 60_000;

    private final Map<String, List<String>> stored;
    /** Where gcloud keeps its configuration (AmbientCredentials); a field so tests can move it. */
    private volatile String userHome = System.getProperty("user.home");
    private final SecretResolver secrets;
    private final Map<String, String> modelsJsonKeys = new HashMap<>();
    /** provider → header name → {@code !command} spec, from models.json. */
    private final Map<String, Map<String, String>> headerCommands = new HashMap<>();
    private final Set<String> keyless = new HashSet<>();
    private final List<String> warnings;
    /** Named in the missing-key message; null for a store built without a file. */
    private final Path authFile;
    private String cliProvider;
    private String cliKey;
    /** Where usage-limit blocks are kept; this process only until {@link #shareBlocks}. */
    private volatile CredentialBlocks blocks;
    /** provider + "\u0000" + sessionId → index of the credential in use. */
    private final Map<String, Integer> sticky = new HashMap<>();

    public AuthStore(Map<String, List<String>> stored, SecretResolver secrets, Scheduler clock) {
        this(stored, secrets, clock, null, List.of());
    }

    private AuthStore(Map<String, List<String>> stored, SecretResolver secrets, Scheduler clock, Path authFile,
            List<String> warnings) {
        this.authFile = authFile;
        this.warnings = List.copyOf(warnings);
        Map<String, List<String>> copy = new HashMap<>();
        stored.forEach((provider, specs) -> copy.put(provider, List.copyOf(specs)));
        this.stored = copy;
        this.secrets = secrets;
        this.blocks = new MemoryState(clock::now);
    }

    /** The home directory under which gcloud's credential file is looked for (tests point it elsewhere). */
    public void setUserHome(String home) {
        this.userHome = home;
    }

    /** Keeps usage-limit blocks in {@code shared} from now on (called once at startup, before any request). */
    public void shareBlocks(CredentialBlocks shared) {
        this.blocks = shared;
    }

    /**
     * Reads {@code auth.json}: provider → a credential or an array of credentials. A malformed
     * file is reported with line and column and ignored; a credential of an unknown shape is
     * reported (naming the provider and the field, never a value) and skipped.
     */
    public static AuthStore load(Path authFile, SecretResolver secrets, Scheduler clock) {
        List<String> warnings = new ArrayList<>();
        Map<String, List<String>> stored = AuthFile.read(authFile, warnings);
        warnings.forEach(LOG::warn);
        return new AuthStore(stored, secrets, clock, authFile, warnings);
    }

    /** What was wrong with auth.json (already logged). */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * A provider that needs no credential ({@code ModelsConfig#keylessProviders}): it counts as
     * configured and its requests go without a key, unless one is configured after all.
     */
    public synchronized void setKeyless(String provider) {
        keyless.add(provider);
    }

    /**
     * A cloud provider whose credential is ambient (Bedrock, Vertex): naming it in models.json
     * configures it, for a credential the environment cannot show (an instance's metadata server).
     */
    public static boolean isAmbient(String provider) {
        return AmbientCredentials.isAmbient(provider);
    }

    public synchronized boolean isKeyless(String provider) {
        return keyless.contains(provider);
    }

    /**
     * The error for a provider with no key: every place one can come from, in the order they
     * are tried, with this provider's environment variable by name.
     */
    public String missingKeyMessage(String provider) {
        if (AmbientCredentials.isAmbient(provider)) {
            return AmbientCredentials.howToConfigure(provider);
        }
        String file = authFile == null ? "auth.json" : authFile.toString();
        String env = envVar(provider).map(name -> "the " + name + " environment variable, ")
                .orElse("");
        return "No API key found for " + provider + ". Set it with --api-key, in " + file + " ({\"" + provider
                + "\": \"<key>\"}), " + env + "or as \"apiKey\" of provider '" + provider + "' in models.json"
                + (envVar(provider).isEmpty() ? " (a models.json provider with a baseUrl and models needs no key "
                + "when \"apiKey\" is left out)" : "") + ".";
    }

    /** {@code --api-key}: overrides every other source for {@code provider}. */
    public synchronized void setCliKey(String provider, String key) {
        this.cliProvider = provider;
        this.cliKey = key;
        KnownSecrets.add(key);
    }

    /** A {@code models.json} {@code apiKey} spec: the last resort for a custom provider. */
    public synchronized void setModelsJsonKey(String provider, String spec) {
        modelsJsonKeys.put(provider, spec);
    }

    /** The {@code models.json} header value specs of {@code provider}; only its commands are kept. */
    public synchronized void setHeaderSpecs(String provider, Map<String, String> specs) {
        Map<String, String> commands = new TreeMap<>();
        specs.forEach((name, spec) -> {
            if (spec != null && spec.startsWith("!")) {
                commands.put(name, spec);
            }
        });
        headerCommands.put(provider, commands);
    }

    /**
     * Why a header command of {@code provider} has no value (N9: named like a key command's
     * failure), or empty. Resolving here caches the value for the request's own header lookup;
     * without it a failed header was left out silently and the provider refused the request.
     */
    public Optional<String> headerProblem(String provider, CancellationToken cancel) {
        Map<String, String> commands;
        synchronized (this) {
            commands = headerCommands.getOrDefault(provider, Map.of());
        }
        for (Map.Entry<String, String> header : commands.entrySet()) {
            if (secrets.attempt(header.getValue(), "header " + header.getKey() + " of " + provider, cancel)
                    instanceof SecretResolver.Resolution.Failed failed) {
                return Optional.of(failed.problem());
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a credential is configured; never runs a {@code !command} (a configured command
     * counts: the run resolves it, off the reader thread). A keyless provider always has one; a
     * cloud provider has one when its ambient credential is evident ({@link AmbientCredentials}).
     */
    public synchronized boolean hasCredential(String provider) {
        return keyless.contains(provider) || (cliKey != null && provider.equals(cliProvider))
                || stored.containsKey(provider) || envVar(provider).flatMap(secrets::env).isPresent() || modelsJsonKeys.containsKey(provider)
                || AmbientCredentials.evident(provider, secrets::env, userHome);
    }

    /** The key the session should use now for {@code provider}. */
    public Optional<String> apiKey(String provider, String sessionId) {
        return apiKey(provider, sessionId, CancellationToken.none());
    }

    /**
     * As {@link #apiKey(String, String)}, giving up on a slow {@code !command} when {@code cancel}
     * fires.
     */
    public Optional<String> apiKey(String provider, String sessionId, CancellationToken cancel) {
        return key(provider, sessionId, cancel).found();
    }

    /**
     * The key the session should use now for {@code provider}, or why there is none: a failed
     * {@code !command} is named with its cause (N9), otherwise {@link #missingKeyMessage}. The
     * choice is made under the lock, the resolution outside it: a command may run for seconds,
     * and {@link #hasCredential} is asked on the stdin reader, which must never wait for it.
     */
    public SecretResolver.Resolution key(String provider, String sessionId, CancellationToken cancel) {
        String storedSpec = null;
        String storedPurpose = null;
        String modelsJsonSpec;
        synchronized (this) {
            if (cliKey != null && provider.equals(cliProvider)) {
                return new SecretResolver.Resolution.Found(cliKey);
            }
            List<String> specs = stored.get(provider);
            if (specs != null) {
                int index = select(provider, sessionId, specs.size());
                storedSpec = specs.get(index);
                storedPurpose = storedPurpose(provider, index);
            }
            modelsJsonSpec = modelsJsonKeys.get(provider);
        }
        List<String> problems = new ArrayList<>();
        if (storedSpec != null) {
            SecretResolver.Resolution key = secrets.attempt(storedSpec, storedPurpose, cancel);
            if (key instanceof SecretResolver.Resolution.Found) {
                return key;
            }
            problems.add(((SecretResolver.Resolution.Failed) key).problem());
        }
        Optional<String> fromEnv = envVar(provider).flatMap(secrets::env);
        if (fromEnv.isPresent()) {
            return new SecretResolver.Resolution.Found(fromEnv.get());
        }
        if (modelsJsonSpec != null) {
            SecretResolver.Resolution key = secrets.attempt(modelsJsonSpec, modelsJsonPurpose(provider), cancel);
            if (key instanceof SecretResolver.Resolution.Found) {
                return key;
            }
            problems.add(((SecretResolver.Resolution.Failed) key).problem());
        }
        return new SecretResolver.Resolution.Failed(problems.isEmpty() ? missingKeyMessage(provider)
                : String.join(" ", problems));
    }

    /**
     * Adds every configured key that needs no command to {@link KnownSecrets} — every
     * {@code auth.json} entry (not only the one in use: a body may quote a key rotated away from),
     * the providers' environment keys, {@code models.json} keys and {@code --api-key} — so that
     * an echo of any of them is redacted (N16). Command outputs are added when they are resolved.
     */
    public synchronized void rememberSecrets() {
        stored.forEach((provider, specs) -> specs.stream().filter(spec -> !spec.startsWith("!"))
                .forEach(spec -> secrets.attempt(spec, provider, CancellationToken.none())));
        modelsJsonKeys.forEach((provider, spec) -> {
            if (!spec.startsWith("!")) {
                secrets.attempt(spec, provider, CancellationToken.none());
            }
        });
        ProviderVariables.ALL.forEach(name -> secrets.env(name).ifPresent(KnownSecrets::add));
        KnownSecrets.add(cliKey);
    }

    private static String storedPurpose(String provider, int index) {
        return provider + "'s key (auth.json credential " + (index + 1) + ")";
    }

    private static String modelsJsonPurpose(String provider) {
        return provider + "'s key (models.json apiKey)";
    }

    /**
     * Blocks the session's current {@code auth.json} credential of {@code provider} until now +
     * {@code retryAfterMs} (default 60 s).
     *
     * @return true iff another credential of the provider is unblocked
     */
    public synchronized boolean markUsageLimitReached(String provider, String sessionId, Long retryAfterMs) {
        List<String> specs = stored.get(provider);
        Integer current = sticky.get(stickyKey(provider, sessionId));
        if (specs == null || current == null) {
            return false;
        }
        blocks.block(credentialId(provider, current),
                retryAfterMs == null || retryAfterMs <= 0 ? DEFAULT_BLOCK_MS : retryAfterMs);
        return otherCredentialFree(provider, sessionId);
    }

    /**
     * True iff the session has a current {@code auth.json} credential of {@code provider} and
     * another one is unblocked: what {@link #markUsageLimitReached} would answer, without blocking.
     */
    public synchronized boolean otherCredentialFree(String provider, String sessionId) {
        List<String> specs = stored.get(provider);
        Integer current = sticky.get(stickyKey(provider, sessionId));
        if (specs == null || current == null) {
            return false;
        }
        for (int i = 0; i < specs.size(); i++) {
            if (i != current && !isBlocked(provider, i)) {
                return true;
            }
        }
        return false;
    }

    private int select(String provider, String sessionId, int count) {
        String key = stickyKey(provider, sessionId);
        Integer current = sticky.get(key);
        int start = current != null ? current : Integer.remainderUnsigned(fnv1a(sessionId), count);
        for (int step = 0; step < count; step++) {
            int candidate = (start + step) % count;
            if (!isBlocked(provider, candidate)) {
                sticky.put(key, candidate);
                return candidate;
            }
        }
        sticky.put(key, start);
        return start;
    }

    private boolean isBlocked(String provider, int index) {
        return blocks.blockedForMs(credentialId(provider, index)) > 0;
    }

    private CredentialId credentialId(String provider, int index) {
        return CredentialIds.of(provider, stored.get(provider).get(index));
    }

    private static String stickyKey(String provider, String sessionId) {
        return provider + "\u0000" + (sessionId == null ? "" : sessionId);
    }

    private static Optional<String> envVar(String provider) {
        return ProviderVariables.forProvider(provider);
    }

    /** 32-bit FNV-1a over the UTF-8 bytes of {@code text}. */
    static int fnv1a(String text) {
        int hash = 0x811c9dc5;
        for (byte b : (text == null ? "" : text).getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }
}
