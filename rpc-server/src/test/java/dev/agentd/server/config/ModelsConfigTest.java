package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** models.json: pi-compatible custom providers, validated field by field. */
class ModelsConfigTest {
    @TempDir
    Path dir;

    private static ModelsConfig parse(String json) {
        return ModelsConfig.parse(json, "models.json");
    }

    private static boolean warned(ModelsConfig config, String fragment) {
        return config.warnings().stream().anyMatch(w -> w.contains(fragment));
    }

    @Test
    void aCompleteProviderBecomesModelsWithItsKeyAndHeaderSpecs() {
        ModelsConfig config = parse("""
                {"providers":{"ollama":{"baseUrl":"http://localhost:11434/v1","api":"openai-completions",
                  "apiKey":"OLLAMA_KEY","headers":{"X-Team":"!pass show team"},
                  "models":[{"id":"llama3.1:8b","name":"Llama 3.1 8B","reasoning":true,"input":["text","image"],
                    "contextWindow":131072,"maxTokens":8192,
                    "cost":{"input":0.1,"output":0.2,"cacheRead":0.01,"cacheWrite":0.02}}]}}}""");
        assertEquals(List.of(), config.warnings());
        Model model = config.models().get(0);
        assertEquals(new Model("llama3.1:8b", "Llama 3.1 8B", "openai-completions", "ollama",
                "http://localhost:11434/v1", true, List.of("text", "image"), new Model.Cost(0.1, 0.2, 0.01, 0.02),
                131_072, 8_192), model);
        assertEquals(Map.of("ollama", "OLLAMA_KEY"), config.apiKeySpecs());
        assertEquals(Map.of("X-Team", "!pass show team"), config.headerSpecs(model));
    }

    @Test
    void optionalModelFieldsGetTheirDefaults() {
        Model model = parse("""
                {"providers":{"local":{"baseUrl":"http://127.0.0.1:8080/v1","api":"openai-completions",
                  "models":[{"id":"qwen"}]}}}""").models().get(0);
        assertEquals(new Model("qwen", "qwen", "openai-completions", "local", "http://127.0.0.1:8080/v1", false,
                List.of("text"), Model.Cost.FREE, 128_000, 16_384), model);
    }

    @Test
    void aMalformedFileIsIgnoredWithAWarning() {
        ModelsConfig config = parse("{\"providers\": {");
        assertEquals(List.of(), config.models());
        assertTrue(warned(config, "malformed"));
        assertTrue(warned(parse("[1,2]"), "not a JSON object"));
        assertTrue(warned(parse("{\"providers\":[]}"), "'providers' must be an object"));
    }

    @Test
    void aBadProviderEntryIsSkippedAndTheOthersKept() {
        ModelsConfig config = parse("""
                {"providers":{
                  "badApi":{"baseUrl":"https://x.example/v1","api":"openai-codex-responses","models":[{"id":"a"}]},
                  "badUrl":{"baseUrl":"ftp://x","api":"openai-completions","models":[{"id":"b"}]},
                  "noUrl":{"api":"openai-completions","models":[{"id":"c"}]},
                  "badHeaders":{"baseUrl":"https://x.example","api":"anthropic-messages","headers":{"a":1},
                                "models":[{"id":"d"}]},
                  "badKey":{"baseUrl":"https://x.example","api":"anthropic-messages","apiKey":42,"models":[{"id":"e"}]},
                  "good":{"baseUrl":"https://api.example.com","api":"anthropic-messages","models":[{"id":"f"}]}}}""");
        assertEquals(List.of("f"), config.models().stream().map(Model::id).toList());
        assertTrue(warned(config, "provider 'badApi' 'api' must be one of"));
        assertTrue(warned(config, "provider 'badUrl' 'baseUrl' must be an http(s) URL"));
        assertTrue(warned(config, "provider 'noUrl' defines models but has no 'baseUrl'"));
        assertTrue(warned(config, "provider 'badHeaders' header 'a' must have a string value"));
        assertTrue(warned(config, "provider 'badKey' 'apiKey' must be a non-empty string"));
        assertEquals(5, config.warnings().size());
    }

    @Test
    void bedrockAndVertexModelsNeedNoBaseUrlAndVertexKeepsItsLocationPlaceholder() {
        ModelsConfig config = parse("""
                {"providers":{
                  "amazon-bedrock":{"api":"bedrock-converse-stream","models":[{"id":"us.anthropic.claude-x"}]},
                  "google-vertex":{"api":"google-vertex","baseUrl":"https://{location}-aiplatform.googleapis.com",
                    "models":[{"id":"claude-x@20250929"}]},
                  "noUrl":{"api":"anthropic-messages","models":[{"id":"c"}]}}}""");
        assertEquals(List.of("us.anthropic.claude-x", "claude-x@20250929"),
                config.models().stream().map(Model::id).toList());
        assertEquals("", config.models().get(0).baseUrl(), "Bedrock derives its endpoint from the region");
        assertEquals("https://{location}-aiplatform.googleapis.com", config.models().get(1).baseUrl());
        assertTrue(warned(config, "provider 'noUrl' defines models but has no 'baseUrl'"));
        assertEquals(1, config.warnings().size(), config.warnings().toString());
    }

    @Test
    void badModelsAreSkippedAndBadOptionalFieldsDefaulted() {
        ModelsConfig config = parse("""
                {"providers":{"p":{"baseUrl":"https://api.example.com/v1","api":"openai-completions","models":[
                  {"name":"no id"},
                  "not an object",
                  {"id":"x","reasoning":"yes","input":["text","audio"],"contextWindow":-1,"maxTokens":1.5,
                   "cost":{"input":-1,"output":"2"}},
                  {"id":"x"},
                  {"id":"y","api":"no-such-api"}]}}}""");
        List<Model> models = config.models();
        assertEquals(1, models.size());
        Model x = models.get(0);
        assertEquals(false, x.reasoning());
        assertEquals(List.of("text"), x.input());
        assertEquals(128_000, x.contextWindow());
        assertEquals(16_384, x.maxTokens());
        assertEquals(Model.Cost.FREE, x.cost());
        for (String fragment : List.of("model #1 needs a non-empty string 'id'", "model #2 must be an object",
                "'reasoning' must be a boolean", "'input' must be an array", "'contextWindow' must be a positive",
                "'maxTokens' must be a positive", "'cost.input' must be a non-negative", "'cost.output'",
                "model 'x' is listed twice", "model 'y': 'api' must be one of")) {
            assertTrue(warned(config, fragment), fragment + " in " + config.warnings());
        }
    }

    @Test
    void secretsAreNeverQuotedInWarnings() {
        ModelsConfig config = parse("""
                {"providers":{"p":{"baseUrl":"ftp://nope","apiKey":"sk-secret-value-123",
                  "headers":{"Authorization":"Bearer sk-secret-header-456"},"models":[{"id":"m"}]}}}""");
        assertTrue(config.warnings().stream().noneMatch(w -> w.contains("sk-secret")), config.warnings().toString());
    }

    @Test
    void anEntryWithoutModelsOverridesTheBuiltInProvider() {
        ModelsConfig config = parse("""
                {"providers":{"anthropic":{"baseUrl":"https://proxy.example.com","headers":{"X-Proxy":"on"}},
                              "empty":{}}}""");
        Model builtin = new Model("claude-x", "Claude X", "anthropic-messages", "anthropic",
                "https://api.anthropic.com", true, List.of("text"), Model.Cost.FREE, 200_000, 64_000);
        Model other = new Model("gpt-x", "GPT X", "openai-completions", "openai", "https://api.openai.com/v1",
                false, List.of("text"), Model.Cost.FREE, 128_000, 16_384);
        List<Model> merged = config.mergeWith(List.of(builtin, other));
        assertEquals("https://proxy.example.com", merged.get(0).baseUrl());
        assertEquals(other, merged.get(1));
        assertEquals(Map.of("X-Proxy", "on"), config.headerSpecs(builtin));
        assertTrue(warned(config, "provider 'empty' has no models and overrides nothing"));
    }

    @Test
    void customModelsReplaceABuiltInOfTheSameIdAndFollowTheCatalog() {
        ModelsConfig config = parse("""
                {"providers":{"openai":{"baseUrl":"https://gw.example.com/v1","api":"openai-completions",
                  "models":[{"id":"gpt-x","contextWindow":1000},{"id":"gpt-new"}]}}}""");
        Model builtin = new Model("gpt-x", "GPT X", "openai-completions", "openai", "https://api.openai.com/v1",
                false, List.of("text"), Model.Cost.FREE, 128_000, 16_384);
        List<Model> merged = config.mergeWith(List.of(builtin));
        assertEquals(List.of("gpt-x", "gpt-new"), merged.stream().map(Model::id).toList());
        assertEquals(1000, merged.get(0).contextWindow());
    }

    @Test
    void headersAreResolvedPerModelAndUnresolvableOnesDropped() {
        ModelsConfig config = parse("""
                {"providers":{"p":{"baseUrl":"https://api.example.com","api":"anthropic-messages",
                  "headers":{"X-A":"A_VAR","X-B":"!false"},"models":[{"id":"m"}]}}}""");
        Map<String, String> resolved = config.headers((spec, purpose) ->
                spec.equals("A_VAR") ? Optional.of("value-a") : Optional.empty()).apply(config.models().get(0));
        assertEquals(Map.of("X-A", "value-a"), resolved);
    }

    @Test
    void loadingReadsTheFileAndAMissingFileIsEmpty() throws IOException {
        assertEquals(List.of(), ModelsConfig.load(dir.resolve("models.json")).models());
        Files.writeString(dir.resolve("models.json"), """
                {"providers":{"p":{"baseUrl":"https://api.example.com","api":"anthropic-messages",
                  "models":[{"id":"m"}]}}}""");
        assertEquals(List.of("m"), ModelsConfig.load(dir.resolve("models.json")).models().stream()
                .map(Model::id).toList());
    }
}
