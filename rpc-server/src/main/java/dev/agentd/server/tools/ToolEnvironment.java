package dev.agentd.server.tools;

import dev.agentd.protocol.model.UrlCredentials;
import dev.agentd.server.runtime.ProviderVariables;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The environment tool commands run with: the daemon's own, minus every credential agentd knows of,
 * so that a routine {@code env} or a verbose build log cannot copy a provider key into the tool
 * result (stdout, the session file, the next request). Stripped: the providers' key variables, the
 * variables {@code models.json} names for keys and headers, and any name that looks like a
 * credential ({@code *_API_KEY}, {@code *_TOKEN}, {@code *_SECRET}, …); agentd's own secret
 * {@value #STATE_URL_VARIABLE} (the Redis URL with its password); and any variable whose value holds
 * a URL with user-info ({@code scheme://user:password@host}, e.g. a proxy or a database URL), whatever
 * its name. The environment variable {@value #ALLOW_VARIABLE} lists names (comma-separated) to pass
 * through anyway, e.g. {@code GITHUB_TOKEN} or {@code https_proxy} for a tool that needs it.
 */
public final class ToolEnvironment {
    public static final String ALLOW_VARIABLE = "AGENTD_TOOL_ENV_ALLOW";
    /** {@code state.StateConfig.ENV_URL}, which this package cannot import. */
    static final String STATE_URL_VARIABLE = "AGENTD_STATE_URL";
    /** The built-in providers' variables (SPEC §2, credential resolution). */
    private static final String[] CREDENTIAL_SUFFIXES = {"_API_KEY", "_APIKEY", "_ACCESS_KEY", "_SECRET_KEY",
        "_SECRET", "_TOKEN", "_PASSWORD", "_PASSWD", "_CREDENTIALS", "_AUTH"};

    private static volatile Set<String> configured = Set.of();

    private ToolEnvironment() {}

    /**
     * Adds the variable names the configuration refers to for credentials ({@code models.json}
     * {@code apiKey} and header values that name an environment variable). Process-wide, like the
     * environment itself; called once at startup.
     */
    public static void alsoStrip(Collection<String> names) {
        Set<String> all = new TreeSet<>(configured);
        for (String name : names) {
            if (name != null && !name.isBlank() && !name.startsWith("!")) {
                all.add(name);
            }
        }
        configured = Set.copyOf(all);
    }

    /** Removes the credential variables from {@code env} (a process builder's environment), in place. */
    static void strip(Map<String, String> env) {
        Set<String> allowed = allowList(env.get(ALLOW_VARIABLE));
        env.entrySet().removeIf(variable -> !allowed.contains(variable.getKey())
                && (isCredential(variable.getKey()) || UrlCredentials.carriesUserInfo(variable.getValue())));
    }

    /** The environment a command gets, given the daemon's. */
    static Map<String, String> forTools(Map<String, String> daemonEnv) {
        Map<String, String> env = new HashMap<>(daemonEnv);
        strip(env);
        return env;
    }

    static boolean isCredential(String name) {
        if (ProviderVariables.ALL.contains(name) || configured.contains(name) || name.equals(STATE_URL_VARIABLE)) {
            return true;
        }
        String upper = name.toUpperCase(Locale.ROOT);
        for (String suffix : CREDENTIAL_SUFFIXES) {
            if (upper.endsWith(suffix) || upper.equals(suffix.substring(1))) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> allowList(String value) {
        Set<String> names = new TreeSet<>();
        if (value != null) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    names.add(part.strip());
                }
            }
        }
        return names;
    }
}
