package dev.agentd.server.rpc;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.testing.SessionHarness;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** pi 1.6's session inspection: get_entries (with a cursor), get_tree, get_available_thinking_levels. */
class SessionInspectionCommandsTest {
    @TempDir
    Path dir;

    private final List<Response> responses = Collections.synchronizedList(new ArrayList<>());

    private Response send(CommandRouter router, String id, Command command) {
        router.dispatch(id, command, responses::add);
        await().until(() -> responses.stream().anyMatch(r -> id.equals(r.id())));
        return responses.stream().filter(r -> id.equals(r.id())).findFirst().orElseThrow();
    }

    private static SessionHarness harness(Path dir, boolean persistent) {
        SessionHarness.Builder builder = SessionHarness.builder(dir);
        return (persistent ? builder.persistent() : builder).build();
    }

    private static List<String> field(JsonNode entries, String path) {
        return StreamSupport.stream(entries.spliterator(), false).map(entry -> entry.at(path).asText()).toList();
    }

    @ParameterizedTest(name = "persistent={0}")
    @ValueSource(booleans = {true, false})
    void entriesAfterAPromptAndACursorThatReturnsOnlyNewerOnes(boolean persistent) throws Exception {
        try (SessionHarness harness = harness(dir, persistent)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            harness.enqueue(FauxStep.text("first answer"), FauxStep.text("second answer"));
            await().until(harness.session.prompt("one")::isDone);

            Response first = send(router, "e1", new Command.GetEntries());
            assertTrue(first.success(), first.toString());
            JsonNode entries = first.data().path("entries");
            assertEquals(List.of("model_change", "thinking_level_change", "message", "message"),
                    field(entries, "/type"));
            assertEquals(List.of("", "", "user", "assistant"), field(entries, "/message/role"));
            assertEquals(entries.get(3).path("id").asText(), first.data().path("leafId").asText());
            assertTrue(entries.get(0).get("parentId").isNull(), "the root's parentId is written as null");
            if (persistent) {
                List<String> lines = Files.readAllLines(Path.of(harness.session.sessionFile()));
                assertEquals(lines.subList(1, lines.size()),
                        StreamSupport.stream(entries.spliterator(), false).map(JsonNode::toString).toList(),
                        "the entries as persisted, header excluded");
            }

            String cursor = first.data().path("leafId").asText();
            await().until(harness.session.prompt("two")::isDone);
            Response newer = send(router, "e2", new Command.GetEntries(cursor));
            assertEquals(List.of("user", "assistant"), field(newer.data().path("entries"), "/message/role"));
            assertEquals("two", newer.data().path("entries").get(0).at("/message/content/0/text").asText());

            Response unknown = send(router, "e3", new Command.GetEntries("nope"));
            assertFalse(unknown.success());
            assertEquals("get_entries", unknown.command());
            assertEquals("Entry not found: nope", unknown.error());
        }
    }

    @ParameterizedTest(name = "persistent={0}")
    @ValueSource(booleans = {true, false})
    void aRetriedReplyLeavesTheFailedOneAsADeadBranchOfTheTree(boolean persistent) {
        try (SessionHarness harness = harness(dir, persistent)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            harness.enqueue(FauxStep.error("529 overloaded_error", 529), FauxStep.text("retried answer"));
            CompletableFuture<Void> done = harness.session.prompt("q");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
            harness.scheduler.advance(2000);
            await().until(done::isDone);

            JsonNode data = send(router, "t", new Command.GetTree()).data();
            JsonNode tree = data.path("tree");
            assertEquals(1, tree.size(), tree.toString());
            JsonNode node = tree.get(0);
            while (node.path("children").size() == 1) {
                node = node.path("children").get(0);
            }
            assertEquals("user", node.at("/entry/message/role").asText(), "the branch point is the prompt");
            JsonNode replies = node.path("children");
            assertEquals(List.of("error", "stop"), field(replies, "/entry/message/stopReason"));
            assertEquals(replies.get(1).at("/entry/id").asText(), data.path("leafId").asText(),
                    "the leaf is the retried reply");
            assertEquals("[]", replies.get(0).path("children").toString());

            JsonNode entries = send(router, "e", new Command.GetEntries()).data().path("entries");
            assertEquals(List.of("error", "stop"), field(entries, "/message/stopReason").subList(3, 5),
                    "get_entries keeps the abandoned reply too");
        }
    }

    @Test
    void aForkStartsATreeOfItsOwnWithTheSameIds() {
        try (SessionHarness harness = harness(dir, true)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            harness.enqueue(FauxStep.text("a1"), FauxStep.text("a2"));
            await().until(harness.session.prompt("one")::isDone);
            await().until(harness.session.prompt("two")::isDone);
            JsonNode before = send(router, "e1", new Command.GetEntries()).data().path("entries");
            String second = before.get(4).path("id").asText();
            assertEquals("two", before.get(4).at("/message/content/0/text").asText());
            send(router, "f", new Command.Fork(second));
            JsonNode after = send(router, "e2", new Command.GetEntries()).data();
            assertEquals(field(before, "/id").subList(0, 4), field(after.path("entries"), "/id"));
            assertEquals(before.get(3).path("id").asText(), after.path("leafId").asText());
            assertEquals(1, send(router, "t", new Command.GetTree()).data().path("tree").size());
        }
    }

    /**
     * 400 entries nest 800 deep. Known limit: past about 495 entries on one chain the tree exceeds
     * Jackson's nesting limit of 1000 (writer and the client's reader), and the writer answers with
     * an error record instead.
     */
    @Test
    void aLongSessionsTreeReachesTheWireAndDecodes() throws Exception {
        try (SessionHarness harness = harness(dir, false)) {
            for (int i = 0; i < 2998; i++) { // 3000 entries on one chain: 6000 levels of nesting
                harness.session.models().setThinkingLevel(i % 2 == 0
                        ? ThinkingLevel.LOW : ThinkingLevel.HIGH);
            }
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            Response tree = send(router, "t", new Command.GetTree());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new JsonlWriter(out, Json.mapper()).write(tree);
            String line = out.toString(StandardCharsets.UTF_8);
            assertTrue(line.startsWith("{\"id\":\"t\",\"type\":\"response\",\"command\":\"get_tree\",\"success\":true"),
                    line.substring(0, 200));
            JsonNode node = JsonTrees.readDaemonOutput(line.getBytes(StandardCharsets.UTF_8)).path("data").path("tree").get(0);
            int depth = 1;
            while (!node.path("children").isEmpty()) {
                node = node.path("children").get(0);
                depth++;
            }
            assertEquals(3000, depth);
        }
    }

    @Test
    void availableThinkingLevelsFollowTheModel() {
        try (SessionHarness harness = harness(dir, false)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            Response levels = send(router, "l1", new Command.GetAvailableThinkingLevels());
            assertEquals("{\"levels\":[\"off\",\"minimal\",\"low\",\"medium\",\"high\"]}", levels.data().toString());
            send(router, "m", new Command.SetModel("faux", "faux-2"));
            assertEquals("{\"levels\":[\"off\"]}",
                    send(router, "l2", new Command.GetAvailableThinkingLevels()).data().toString(),
                    "a model without reasoning");
            assertEquals(new Results.ThinkingLevels(List.of(ThinkingLevel.OFF)),
                    Json.mapper().convertValue(send(router, "l3", new Command.GetAvailableThinkingLevels()).data(),
                            Results.ThinkingLevels.class), "the typed result decodes it");
        }
    }
}
