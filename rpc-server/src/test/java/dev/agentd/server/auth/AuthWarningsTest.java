package dev.agentd.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.testing.FakeScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 points 4 and 6: auth.json mistakes are explained, missing keys name every source. */
class AuthWarningsTest {
    @TempDir
    Path dir;

    private AuthStore load(String json) throws IOException {
        Path file = Files.writeString(dir.resolve("auth.json"), json);
        FakeScheduler clock = new FakeScheduler();
        return AuthStore.load(file, new SecretResolver(Map.of(), clock, SecretResolver.COMMAND_LIMIT_MS), clock);
    }

    @Test
    void aMistypedCredentialTypeIsWarnedWithoutItsKey() throws IOException {
        AuthStore auth = load("{\"anthropic\":{\"type\":\"apikey\",\"key\":\"sk-ant-secret-1\"},"
                + "\"openai\":{\"type\":\"api_key\",\"kye\":\"sk-oa-secret-2\"}}");
        List<String> warnings = auth.warnings();
        String file = dir.resolve("auth.json").toString();
        assertTrue(warnings.contains(file + ": 'anthropic': credential type 'apikey' is not supported (did you mean "
                + "'api_key'?); only \"api_key\" is; ignored"), warnings.toString());
        assertTrue(warnings.contains(file + ": 'openai' has an unknown field 'kye' (did you mean 'key'?); ignored"),
                warnings.toString());
        assertFalse(String.join("\n", warnings).contains("secret"), warnings.toString());
        assertFalse(auth.hasCredential("anthropic"));
    }

    @Test
    void aMalformedFileNamesLineAndColumnButNoValue() throws IOException {
        List<String> warnings = load("{\"anthropic\":\n  sk-ant-secret-3}").warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("auth file is malformed JSON: " + dir.resolve("auth.json") + ":2:"),
                warnings.toString());
        assertFalse(warnings.get(0).contains("secret"), warnings.get(0));
    }

    @Test
    void aMissingKeyNamesTheVariableTheFileAndModelsJson() throws IOException {
        String message = load("{}").missingKeyMessage("anthropic");
        assertTrue(message.startsWith("No API key found for anthropic. Set it with --api-key, in "
                + dir.resolve("auth.json")), message);
        assertTrue(message.contains("the ANTHROPIC_API_KEY environment variable"), message);
        assertTrue(message.contains("\"apiKey\" of provider 'anthropic' in models.json"), message);
        String custom = load("{}").missingKeyMessage("mylab");
        assertFalse(custom.contains("environment variable"), custom);
        assertTrue(custom.contains("needs no key when \"apiKey\" is left out"), custom);
    }

    @Test
    void aKeylessProviderCountsAsConfiguredAndYieldsNoKey() throws IOException {
        AuthStore auth = load("{}");
        assertFalse(auth.hasCredential("ollama"));
        auth.setKeyless("ollama");
        assertTrue(auth.hasCredential("ollama"));
        assertTrue(auth.isKeyless("ollama"));
        assertEquals(Optional.empty(), auth.apiKey("ollama", "s"));
    }
}
