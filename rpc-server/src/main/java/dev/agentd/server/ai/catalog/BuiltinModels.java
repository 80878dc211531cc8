package dev.agentd.server.ai.catalog;

import dev.agentd.protocol.model.Model;
import java.util.List;
import java.util.stream.Stream;

/**
 * The models agentd knows without a models.json (SPEC §6.1). Prices are USD per million tokens
 * as the vendors published them in late 2025 (input, output, cache read, cache write; Anthropic's
 * cache write is the 5-minute rate). They are approximate and only feed the cost report, never a
 * decision; models.json can override any entry. The first model of a provider is its default.
 */
public final class BuiltinModels {
    public static final String ANTHROPIC_URL = "https://api.anthropic.com";
    public static final String OPENAI_URL = "https://api.openai.com/v1";
    public static final String OPENROUTER_URL = "https://openrouter.ai/api/v1";
    public static final String GROQ_URL = "https://api.groq.com/openai/v1";
    private static final String MESSAGES = "anthropic-messages";
    private static final String COMPLETIONS = "openai-completions";
    private static final List<String> TEXT_IMAGE = List.of("text", "image");
    private static final List<String> TEXT = List.of("text");

    public static final List<Model> ANTHROPIC = List.of(
            anthropic("claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000, 3, 15, 0.30, 3.75),
            anthropic("claude-opus-4-5", "Claude Opus 4.5", 64_000, 5, 25, 0.50, 6.25),
            anthropic("claude-haiku-4-5", "Claude Haiku 4.5", 64_000, 1, 5, 0.10, 1.25),
            anthropic("claude-opus-4-1", "Claude Opus 4.1", 32_000, 15, 75, 1.50, 18.75),
            anthropic("claude-sonnet-4-0", "Claude Sonnet 4", 64_000, 3, 15, 0.30, 3.75));

    public static final List<Model> OPENAI = List.of(
            openai("gpt-5", "GPT-5", true, TEXT_IMAGE, 400_000, 128_000, 1.25, 10, 0.125),
            openai("gpt-5-mini", "GPT-5 mini", true, TEXT_IMAGE, 400_000, 128_000, 0.25, 2, 0.025),
            openai("gpt-5-nano", "GPT-5 nano", true, TEXT_IMAGE, 400_000, 128_000, 0.05, 0.40, 0.005),
            openai("gpt-4.1", "GPT-4.1", false, TEXT_IMAGE, 1_047_576, 32_768, 2, 8, 0.50),
            openai("gpt-4.1-mini", "GPT-4.1 mini", false, TEXT_IMAGE, 1_047_576, 32_768, 0.40, 1.60, 0.10),
            openai("gpt-4o", "GPT-4o", false, TEXT_IMAGE, 128_000, 16_384, 2.50, 10, 1.25),
            openai("gpt-4o-mini", "GPT-4o mini", false, TEXT_IMAGE, 128_000, 16_384, 0.15, 0.60, 0.075),
            openai("o3", "o3", true, TEXT_IMAGE, 200_000, 100_000, 2, 8, 0.50),
            openai("o4-mini", "o4-mini", true, TEXT_IMAGE, 200_000, 100_000, 1.10, 4.40, 0.275));

    /** A few well-known gateway ids (OpenRouter maps reasoning_effort onto each vendor's control). */
    public static final List<Model> GATEWAYS = List.of(
            model("anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5 (OpenRouter)", "openrouter", OPENROUTER_URL, true,
                    TEXT_IMAGE, 200_000, 64_000, new Model.Cost(3, 15, 0.30, 3.75)),
            model("openai/gpt-5", "GPT-5 (OpenRouter)", "openrouter", OPENROUTER_URL, true, TEXT_IMAGE, 400_000,
                    128_000, new Model.Cost(1.25, 10, 0.125, 0)),
            model("llama-3.3-70b-versatile", "Llama 3.3 70B (Groq)", "groq", GROQ_URL, false, TEXT, 131_072, 32_768,
                    new Model.Cost(0.59, 0.79, 0, 0)),
            model("openai/gpt-oss-120b", "GPT-OSS 120B (Groq)", "groq", GROQ_URL, true, TEXT, 131_072, 65_536,
                    new Model.Cost(0.15, 0.75, 0, 0)));

    public static final List<Model> ALL = Stream.of(ANTHROPIC, OPENAI, GATEWAYS).flatMap(List::stream).toList();

    private BuiltinModels() {}

    private static Model anthropic(String id, String name, long maxTokens, double input, double output,
            double cacheRead, double cacheWrite) {
        return model(id, name, "anthropic", ANTHROPIC_URL, true, TEXT_IMAGE, 200_000, maxTokens,
                new Model.Cost(input, output, cacheRead, cacheWrite));
    }

    private static Model openai(String id, String name, boolean reasoning, List<String> input, long contextWindow,
            long maxTokens, double inputPrice, double outputPrice, double cacheRead) {
        return model(id, name, "openai", OPENAI_URL, reasoning, input, contextWindow, maxTokens,
                new Model.Cost(inputPrice, outputPrice, cacheRead, 0));
    }

    private static Model model(String id, String name, String provider, String baseUrl, boolean reasoning,
            List<String> input, long contextWindow, long maxTokens, Model.Cost cost) {
        String api = provider.equals("anthropic") ? MESSAGES : COMPLETIONS;
        return new Model(id, name, api, provider, baseUrl, reasoning, input, cost, contextWindow, maxTokens);
    }
}
