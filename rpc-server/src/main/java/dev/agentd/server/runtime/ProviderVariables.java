package dev.agentd.server.runtime;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The environment variables that carry provider keys: the one table both credential lookup
 * ({@code auth}) and the tools' environment scrubbing ({@code tools}) read, so a provider added
 * here is found and stripped alike.
 */
public final class ProviderVariables {
    private static final Map<String, String> BY_PROVIDER = Map.ofEntries(
            Map.entry("anthropic", "ANTHROPIC_API_KEY"),
            Map.entry("openai", "OPENAI_API_KEY"),
            Map.entry("azure", "AZURE_OPENAI_API_KEY"),
            Map.entry("azure-openai-responses", "AZURE_OPENAI_API_KEY"),
            Map.entry("google", "GEMINI_API_KEY"),
            Map.entry("openrouter", "OPENROUTER_API_KEY"),
            Map.entry("groq", "GROQ_API_KEY"),
            Map.entry("deepseek", "DEEPSEEK_API_KEY"),
            Map.entry("xai", "XAI_API_KEY"),
            Map.entry("cerebras", "CEREBRAS_API_KEY"),
            Map.entry("mistral", "MISTRAL_API_KEY"),
            Map.entry("together", "TOGETHER_API_KEY"),
            Map.entry("fireworks", "FIREWORKS_API_KEY"));
    /**
     * Other secrets: key variables of tools the user may run that agentd itself does not read, and
     * the AWS credentials the Bedrock provider reads through the AWS credential chain (redacted
     * like any key, and kept from the tools' environment, so a command the model runs cannot
     * send them anywhere).
     */
    private static final Set<String> OTHERS = Set.of("GOOGLE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK");

    /**
     * Providers whose credential is ambient (the AWS credential chain): they need no key, but
     * their models count as configured only when one of these variables is set (pi's rule, less
     * web identity, which agentd's chain does not read), so that the built-in catalog's 208
     * Bedrock models are not offered to every user.
     */
    private static final Map<String, List<String>> AMBIENT = Map.of("amazon-bedrock", List.of("AWS_PROFILE",
            "AWS_ACCESS_KEY_ID", "AWS_BEARER_TOKEN_BEDROCK", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI"));

    /** Every known key variable: the providers' and the others'. */
    public static final Set<String> ALL = all();

    private ProviderVariables() {}

    /** The variable agentd reads a provider's key from, if it knows one. */
    public static Optional<String> forProvider(String provider) {
        return Optional.ofNullable(BY_PROVIDER.get(provider));
    }

    /** Whether {@code provider}'s credential is ambient (see {@link #ambientConfigured}). */
    public static boolean isAmbient(String provider) {
        return AMBIENT.containsKey(provider);
    }

    /** Whether the environment names an ambient credential of {@code provider} (a non-blank variable). */
    public static boolean ambientConfigured(String provider, Function<String, String> env) {
        for (String name : AMBIENT.getOrDefault(provider, List.of())) {
            String value = env.apply(name);
            if (value != null && !value.isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** The variables that configure an ambient provider, for messages. */
    public static List<String> ambientVariables(String provider) {
        return AMBIENT.getOrDefault(provider, List.of());
    }

    private static Set<String> all() {
        Set<String> names = new TreeSet<>(BY_PROVIDER.values());
        names.addAll(OTHERS);
        return Set.copyOf(names);
    }
}
