package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.agentd.protocol.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fallback design §2 (validation): one warning string per problem, worded exactly. */
class ChainValidationTest {

    private static List<String> validate(String json) throws Exception {
        JsonNode node = Json.mapper().readTree(json);
        return Chains.validate(node, Fixtures.CATALOG);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "null     | Fallback chains must be a plain object, but got null.",
        "[]       | Fallback chains must be a plain object, but got an array.",
        "`\"x\"`  | Fallback chains must be a plain object, but got a string.",
        "3        | Fallback chains must be a plain object, but got a number.",
        "true     | Fallback chains must be a plain object, but got a boolean.",
    })
    void notAnObject(String json, String warning) throws Exception {
        assertEquals(List.of(warning), validate(json));
    }

    @Test
    void absentOrValidChainsHaveNoWarnings() throws Exception {
        assertEquals(List.of(), Chains.validate(null, Fixtures.CATALOG));
        assertEquals(List.of(), Chains.validate(MissingNode.getInstance(), Fixtures.CATALOG));
        assertEquals(List.of(), validate("""
                {"anthropic/claude-opus-4-5:high": ["openai/gpt-5:xhigh", "claude-sonnet-4-5", "k3"],
                 "claude-sonnet-4-5": ["openrouter/qwen/qwen3-coder:exacto", "ollama/llama3.1:8b"],
                 "gpt-5": []}"""));
    }

    @Test
    void everyProblemIsReported() throws Exception {
        assertEquals(List.of(
                "Fallback chain key \"default\" must use a provider/model selector; roles are unsupported.",
                "Fallback chain key \"claude-*\" cannot contain wildcards.",
                "Fallback chain key \"anthropic/*\" cannot contain wildcards.",
                "Fallback chain key \"anthropic/claude-opus-9\" is not a valid or known model selector.",
                "Fallback chain key \"openai/\" is not a valid or known model selector.",
                "Fallback chain key \"openai/gpt-4o:high\" uses thinking level \"high\", which is unsupported by openai/gpt-4o.",
                "Fallback chain \"openai/gpt-5\" entries must be an array of strings.",
                "Fallback chain \"azure/gpt-5\" entries must be an array of strings.",
                "Fallback chain entry \"gpt-9\" for \"anthropic/claude-opus-4-5\" is not a valid or known model selector.",
                "Fallback chain entry \"openai/gpt-9\" for \"anthropic/claude-opus-4-5\" is not a valid or known model selector.",
                "Fallback chain entry \"anthropic/claude-opus-4-5:low\" for \"anthropic/claude-opus-4-5\" cannot reference the same model.",
                "Fallback chain entry \"anthropic/claude-sonnet-4-5:xhigh\" for \"anthropic/claude-opus-4-5\" uses thinking level \"xhigh\", which is unsupported by anthropic/claude-sonnet-4-5."),
                validate("""
                        {"default": ["openai/gpt-5"],
                         "claude-*": ["openai/gpt-5"],
                         "anthropic/*": ["openai/gpt-5"],
                         "anthropic/claude-opus-9": ["openai/gpt-5"],
                         "openai/": ["openai/gpt-5"],
                         "openai/gpt-4o:high": ["openai/gpt-5"],
                         "openai/gpt-5": "anthropic/claude-opus-4-5",
                         "azure/gpt-5": ["openai/gpt-5", 3],
                         "anthropic/claude-opus-4-5": ["gpt-9", "openai/gpt-9", "anthropic/claude-opus-4-5:low",
                             "anthropic/claude-sonnet-4-5:xhigh", "openai/gpt-5"]}"""));
    }
}
