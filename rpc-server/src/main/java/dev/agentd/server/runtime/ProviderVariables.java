package dev.agentd.server.runtime;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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
            Map.entry("google-vertex", "GOOGLE_CLOUD_API_KEY"),
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

    /** Every known key variable: the providers' and the others'. */
    public static final Set<String> ALL = all();

    private ProviderVariables() {}

    /** The variables agentd reads providers' keys from, sorted (told to an editor as the way to authenticate). */
    public static Set<String> providerKeys() {
        return new TreeSet<>(BY_PROVIDER.values());
    }

    /** The variable agentd reads a provider's key from, if it knows one. */
    public static Optional<String> forProvider(String provider) {
        return Optional.ofNullable(BY_PROVIDER.get(provider));
    }

    private static Set<String> all() {
        Set<String> names = new TreeSet<>(BY_PROVIDER.values());
        names.addAll(OTHERS);
        return Set.copyOf(names);
    }
}
