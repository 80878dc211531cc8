package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FALLBACK §1 on real files: keys holding dots and slashes, maps the project replaces, global-only writes. */
class SettingsSegmentsTest {
    private static final List<String> CHAINS = List.of("retry", "fallbackChains");
    private static final String SELECTOR = "anthropic/claude-sonnet-4.5:high";

    @TempDir
    Path dir;

    private Path global() {
        return dir.resolve("agent/settings.json");
    }

    private Path project() {
        return dir.resolve("project/.agentd/settings.json");
    }

    private void write(Path file, String json) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
    }

    private static JsonNode json(String text) throws IOException {
        return Json.mapper().readTree(text);
    }

    private JsonNode onDisk(Path file) throws IOException {
        return json(Files.readString(file));
    }

    @Test
    void keysWithDotsSlashesAndColonsRoundTripAsOneSegment() throws IOException {
        SettingsStore store = new SettingsStore(global(), project());
        store.setGlobal(List.of("retry", "fallbackChains", SELECTOR), json("[\"openai/gpt-4.1\",\"gemini\"]"));
        store.set(List.of("models", "gpt-4.1"), TextNode.valueOf("kept"));

        JsonNode file = onDisk(global());
        assertEquals("[\"openai/gpt-4.1\",\"gemini\"]", file.path("retry").path("fallbackChains").path(SELECTOR)
                .toString(), "the selector is one key, not split at its dots or slash: " + file);
        assertEquals("kept", file.path("models").path("gpt-4.1").asText(), file.toString());
        assertFalse(file.path("models").has("gpt-4"), "no 'gpt-4' → '1' nesting: " + file);

        Settings reloaded = new SettingsStore(global(), project()).current();
        assertEquals("gemini", reloaded.node(List.of("retry", "fallbackChains", SELECTOR)).orElseThrow().get(1)
                .asText());
        assertEquals("kept", reloaded.node(List.of("models", "gpt-4.1")).orElseThrow().asText());
        assertEquals(Optional.empty(), reloaded.node("models.gpt-4.1"), "the dotted shorthand splits at every dot");
    }

    @Test
    void theProjectsChainMapReplacesTheGlobalOneWhileOtherMapsMerge() throws IOException {
        write(global(), "{\"retry\":{\"maxRetries\":5,\"fallbackChains\":{\"openai/gpt-4.1\":[\"groq\"],"
                + "\"claude\":[\"gemini\"]}},\"compaction\":{\"enabled\":false,\"reserveTokens\":100}}");
        write(project(), "{\"retry\":{\"fallbackChains\":{\"claude\":[\"openai/gpt-4.1\"]}},"
                + "\"compaction\":{\"reserveTokens\":200}}");
        Settings settings = new SettingsStore(global(), project()).current();
        assertEquals("{\"claude\":[\"openai/gpt-4.1\"]}", settings.node(CHAINS).orElseThrow().toString(),
                "replaced wholesale: the global chain for openai/gpt-4.1 is gone");
        assertEquals(5, settings.integer("retry.maxRetries", 3, 0, 100), "the rest of retry still merges");
        assertFalse(settings.bool("compaction.enabled", true), "other maps merge key by key");
        assertEquals(200, settings.integer("compaction.reserveTokens", 0, 0, 1000));
    }

    @Test
    void anEmptyProjectChainMapStillReplacesTheGlobalOne() throws IOException {
        write(global(), "{\"retry\":{\"fallbackChains\":{\"claude\":[\"gemini\"]}}}");
        write(project(), "{\"retry\":{\"fallbackChains\":{}}}");
        assertEquals("{}", new SettingsStore(global(), project()).current().node(CHAINS).orElseThrow().toString());
    }

    @Test
    void globalReadsAndWritesSeeTheGlobalFileAloneAndNeverCopyProjectEntries() throws IOException {
        write(global(), "{\"retry\":{\"fallbackChains\":{\"claude\":[\"gemini\"]}},\"custom\":1}");
        write(project(), "{\"steeringMode\":\"all\",\"retry\":{\"fallbackChains\":{\"p\":[\"q\"]}}}");
        String projectBefore = Files.readString(project());
        SettingsStore store = new SettingsStore(global(), project());
        store.set("retry.enabled", BooleanNode.FALSE);

        assertEquals("{\"claude\":[\"gemini\"]}", store.globalValue(CHAINS).orElseThrow().toString());
        assertEquals(Optional.empty(), store.globalValue(List.of("steeringMode")), "project keys are not global");

        store.setGlobal(List.of("retry", "fallbackChains", "openai/gpt-4.1"), json("[\"groq\"]"));
        JsonNode file = onDisk(global());
        assertEquals(json("{\"claude\":[\"gemini\"],\"openai/gpt-4.1\":[\"groq\"]}"),
                file.path("retry").path("fallbackChains"), file.toString());
        assertFalse(file.has("steeringMode"), "no project entry is copied: " + file);
        assertFalse(file.path("retry").path("fallbackChains").has("p"), file.toString());
        assertFalse(file.path("retry").path("enabled").asBoolean(true), "earlier toggles stay");
        assertEquals(1, file.path("custom").asInt(), "unknown keys stay");
        assertEquals(projectBefore, Files.readString(project()));
        assertEquals("{\"p\":[\"q\"]}", store.current().node(CHAINS).orElseThrow().toString(),
                "the project map still wins in the effective settings");

        store.setGlobal(List.of("retry", "fallbackChains", "claude"), null);
        assertEquals(json("{\"openai/gpt-4.1\":[\"groq\"]}"), onDisk(global()).path("retry").path("fallbackChains"),
                "null removes the key");
    }

    @Test
    void aGlobalWriteIsSeenInTheEffectiveSettingsWithoutAProjectValue() throws IOException {
        SettingsStore store = new SettingsStore(global(), project());
        store.setGlobal(List.of("retry", "fallbackChains", "claude"), json("[\"gemini\"]"));
        assertEquals("{\"claude\":[\"gemini\"]}", store.current().node(CHAINS).orElseThrow().toString());
    }

    @Test
    void globalValueReadsWhatAnotherWriterPutInTheFile() throws IOException {
        SettingsStore reader = new SettingsStore(global(), null);
        SettingsStore writer = new SettingsStore(global(), null);
        writer.setGlobal(List.of("retry", "fallbackChains", "claude"), json("[\"gemini\"]"));
        assertEquals("[\"gemini\"]", reader.globalValue(List.of("retry", "fallbackChains", "claude")).orElseThrow()
                .toString(), "read from disk now, not from the copy loaded at start");
        assertTrue(reader.current().node(CHAINS).isEmpty(), "the effective settings change on reload only");
    }

    @Test
    void inMemorySettingsSupportTheSameGlobalCalls() throws IOException {
        SettingsStore store = SettingsStore.inMemory();
        store.setGlobal(List.of("retry", "fallbackChains", SELECTOR), json("[]"));
        assertEquals("[]", store.globalValue(List.of("retry", "fallbackChains", SELECTOR)).orElseThrow().toString());
        assertEquals("[]", store.current().node(List.of("retry", "fallbackChains", SELECTOR)).orElseThrow()
                .toString());
    }
}
