package dev.agentd.server.runtime;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every secret value this process has been configured with or has resolved — keys of every
 * provider ({@code auth.json} entries, rotated-away ones included, env keys, {@code models.json}
 * keys and header values, {@code !command} outputs), the state store's password, the credentials
 * inside base URLs — so that an echo of any of them is redacted, not only the request's own. Like
 * the environment it mirrors, it is process-wide. Bounded: values shorter than
 * {@value #MIN_LENGTH} characters are not kept (redacting "1" or "true" everywhere would mangle
 * messages and protect nothing), nor values longer than {@value #MAX_LENGTH}, and at most
 * {@value #MAX_COUNT} values in all (the first ones: the configuration's, registered at startup).
 */
public final class KnownSecrets {
    public static final int MIN_LENGTH = 6;
    static final int MAX_LENGTH = 8192;
    static final int MAX_COUNT = 256;

    private static final KnownSecrets PROCESS = new KnownSecrets(MAX_COUNT);

    private final Set<String> values = ConcurrentHashMap.newKeySet();
    private final int maxCount;

    KnownSecrets(int maxCount) {
        this.maxCount = maxCount;
    }

    /** Remembers {@code value} as a secret of the process, if it is within the bounds. */
    public static void add(String value) {
        PROCESS.remember(value);
    }

    /** A snapshot of every secret of the process known now. */
    public static List<String> all() {
        return PROCESS.values();
    }

    void remember(String value) {
        if (value == null || value.length() < MIN_LENGTH || value.length() > MAX_LENGTH || value.isBlank()) {
            return;
        }
        // The size check and the add are not atomic: a few values past the bound under a race are harmless.
        if (values.size() < maxCount) {
            values.add(value);
        }
    }

    List<String> values() {
        return List.copyOf(values);
    }
}
