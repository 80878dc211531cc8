package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.session.ModelControl.Source;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.testing.SessionHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FALLBACK §5.3/§5.6 on real session files: what a switch writes, and what a resume returns to. */
class ModelResumeTest {
    @TempDir
    Path dir;

    private static List<JsonNode> modelChanges(Path file) throws IOException {
        List<JsonNode> changes = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            JsonNode entry = Json.mapper().readTree(line);
            if (entry.path("type").asText().equals("model_change")) {
                changes.add(entry);
            }
        }
        return changes;
    }

    /** A persisted session on faux-2 (the user's choice) that then fell back to faux-1. */
    private Path sessionThatFellBack() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.session.models().setThinkingLevel(ThinkingLevel.HIGH);
            harness.session.models().set("faux", "faux-2");
            harness.enqueue(FauxStep.text("answer"));
            await().until(harness.session.prompt("question")::isDone);
            harness.session.models().switchTo(FauxModels.FAUX_1, ThinkingLevel.LOW, Source.FALLBACK, false);
            harness.session.models().setThinkingLevel(ThinkingLevel.MINIMAL);
            AgentEvent.ModelChanged event = harness.events(AgentEvent.ModelChanged.class).get(1);
            assertEquals("fallback", event.source());
            assertEquals(ThinkingLevel.LOW, event.thinkingLevel());
            return Path.of(harness.session.sessionFile());
        }
    }

    @Test
    void fallbackEntriesNameTheirReasonAndOriginalWhileUserEntriesStayAsPiWritesThem() throws Exception {
        Path file = sessionThatFellBack();
        List<JsonNode> changes = modelChanges(file);
        assertEquals(3, changes.size(), changes.toString());
        for (JsonNode user : changes.subList(0, 2)) {
            List<String> keys = new ArrayList<>();
            user.fieldNames().forEachRemaining(keys::add);
            assertEquals(List.of("type", "id", "parentId", "timestamp", "provider", "modelId"), keys,
                    "a user's change is pi's {provider, modelId}: " + user);
        }
        JsonNode fallback = changes.get(2);
        assertEquals("faux-1", fallback.path("modelId").asText());
        assertEquals("fallback", fallback.path("reason").asText());
        assertEquals("faux", fallback.path("originalProvider").asText());
        assertEquals("faux-2", fallback.path("originalModelId").asText(), fallback.toString());
        JsonNode settings = Json.mapper().readTree(Files.readString(dir.resolve("settings.json")));
        assertEquals("faux-2", settings.path("defaultModel").asText(), "the fallback is not the new default");
    }

    @Test
    void resumingAfterAFallbackReturnsToThePrimaryAndTheLevelBeforeIt() throws Exception {
        Path file = sessionThatFellBack();
        try (SessionHarness resumed = SessionHarness.builder(dir)
                .sessionFile(SessionFile.load(file, System::currentTimeMillis)).build()) {
            ModelChoice choice = resumed.session.models().choice();
            assertEquals(FauxModels.FAUX_2, choice.model(), "the primary, not the fallback model");
            assertEquals(ThinkingLevel.HIGH, choice.preferred(), "the level from before the fallback");
            assertEquals(FauxModels.FAUX_2, resumed.session.state().model());
        }
        JsonNode last = modelChanges(file).get(modelChanges(file).size() - 1);
        assertEquals("faux-2", last.path("modelId").asText(), "the restore is recorded: " + last);
        assertFalse(last.has("reason"), "as a plain change, which closes the fallback window");
    }

    @Test
    void resumingAfterARevertKeepsThePrimaryAndTheLevelFromBeforeTheFallback() throws Exception {
        Path file;
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            ModelControl models = harness.session.models();
            models.setThinkingLevel(ThinkingLevel.HIGH);
            models.set("faux", "faux-2");
            harness.enqueue(FauxStep.text("answer"));
            await().until(harness.session.prompt("question")::isDone);
            models.switchTo(FauxModels.FAUX_1, null, Source.FALLBACK, false);
            models.setThinkingLevel(ThinkingLevel.MINIMAL);
            models.switchTo(FauxModels.FAUX_2, ThinkingLevel.HIGH, Source.FALLBACK_REVERT, false, FauxModels.FAUX_2);
            file = Path.of(harness.session.sessionFile());
        }
        JsonNode revert = modelChanges(file).get(3);
        assertEquals("fallback-revert", revert.path("reason").asText());
        assertEquals("faux-2", revert.path("originalModelId").asText());
        try (SessionHarness resumed = SessionHarness.builder(dir)
                .sessionFile(SessionFile.load(file, System::currentTimeMillis)).build()) {
            ModelChoice choice = resumed.session.models().choice();
            assertEquals(FauxModels.FAUX_2, choice.model());
            assertEquals(ThinkingLevel.HIGH, choice.preferred(),
                    "the level set during the fallback (minimal) ends with it");
        }
    }
}
