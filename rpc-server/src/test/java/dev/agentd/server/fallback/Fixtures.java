package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import java.util.List;

/** A small catalog exercising families, namespaces, variants, aggregators and colons in ids. */
final class Fixtures {
    private Fixtures() {}

    static Model model(String provider, String id, boolean reasoning) {
        return new Model(id, id, "openai-completions", provider, "http://127.0.0.1:1", reasoning, null, null,
                200_000, 32_000);
    }

    static final Model OPUS = model("anthropic", "claude-opus-4-5", true);
    static final Model SONNET = model("anthropic", "claude-sonnet-4-5", true);
    static final Model SONNET_DATED = model("anthropic", "claude-sonnet-4-5-20250929", true);
    static final Model BEDROCK_SONNET = model("bedrock", "global.anthropic.claude-sonnet-4-5", true);
    static final Model VERTEX_SONNET = model("vertex", "claude-sonnet-4-5-v2", true);
    static final Model VERTEX_SONNET_LONG = model("vertex", "claude-sonnet-4-5-v2-long", true);
    static final Model ROUTER_SONNET = model("openrouter", "anthropic/claude-sonnet-4-5", true);
    static final Model ROUTER_QWEN = model("openrouter", "qwen/qwen3-coder:exacto", true);
    static final Model EVIL = model("evil", "not-claude-sonnet-4-5", true);
    static final Model GPT5 = model("openai", "gpt-5", true);
    static final Model GPT5_MINI = model("openai", "gpt-5-mini", true);
    static final Model AZURE_GPT5 = model("azure", "gpt-5", true);
    static final Model GPT4O = model("openai", "gpt-4o", false);
    static final Model K3 = model("moonshot", "k3-256k", true);
    static final Model KIMI_K3 = model("groq", "kimi-k3", true);
    static final Model LLAMA = model("ollama", "llama3.1:8b", false);

    static final List<Model> MODELS = List.of(OPUS, SONNET, SONNET_DATED, BEDROCK_SONNET, VERTEX_SONNET,
            VERTEX_SONNET_LONG, ROUTER_SONNET, ROUTER_QWEN, EVIL, GPT5, GPT5_MINI, AZURE_GPT5, GPT4O, K3, KIMI_K3, LLAMA);

    static final FallbackCatalog CATALOG = FallbackCatalog.of(MODELS);
}
