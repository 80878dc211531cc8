package dev.agentd.server.rpc;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command handling in-process: data shapes, ids, one answer per prompt, settings persistence. */
class CommandRouterTest {
    @TempDir
    Path dir;

    private final List<Response> responses = Collections.synchronizedList(new ArrayList<>());

    private Response send(CommandRouter router, String id, Command command) {
        router.dispatch(id, command, responses::add);
        await().until(() -> responses.stream().anyMatch(r -> id.equals(r.id())));
        return responses.stream().filter(r -> id.equals(r.id())).findFirst().orElseThrow();
    }

    @Test
    void aPromptThatFailsItsPreflightGetsOneFailureResponseAndNoEvents() {
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(new ScriptedProvider(), ScriptedProvider.MODEL).build()) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            Response only = send(router, "p1", new Command.Prompt("hi"));
            assertEquals("prompt", only.command());
            assertFalse(only.success());
            assertTrue(only.error().startsWith("No API key found for scripted"), only.error());
            send(router, "s", new Command.GetState());
            assertEquals(1, responses.stream().filter(r -> "p1".equals(r.id())).count(), responses.toString());
            assertEquals(List.of(), harness.events(), "no agent events for a prompt that never ran");
            assertFalse(harness.session.state().isStreaming());
        }
    }

    @Test
    void anAcceptedPromptIsAnsweredOnceBeforeItsRunStarts() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            List<Object> order = Collections.synchronizedList(new ArrayList<>());
            harness.session.subscribe(event -> order.add(event.type()));
            router.dispatch("p1", new Command.Prompt("hi"), response -> {
                order.add(response);
                responses.add(response);
            });
            await().until(() -> order.contains("agent_end"));
            // pi 1.6: the answer carries the disposition (was data-less before agentd spoke 1.6)
            assertEquals(Response.ok("p1", "prompt", Json.mapper().createObjectNode().put("disposition", "started")),
                    order.get(0), order.toString());
            assertEquals("agent_start", order.get(1));
            assertEquals(1, responses.size(), responses.toString());
        }
    }

    @Test
    void modelAndThinkingCommands() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            JsonNode models = send(router, "m", new Command.GetAvailableModels()).data();
            assertEquals(2, models.path("models").size());
            JsonNode cycled = send(router, "c", new Command.CycleModel()).data();
            assertEquals("faux-2", cycled.path("model").path("id").asText());
            assertEquals("off", cycled.path("thinkingLevel").asText(), "faux-2 has no reasoning");
            assertTrue(send(router, "ct", new Command.CycleThinkingLevel()).data().isNull(),
                    "literal data:null when there is nothing to cycle");
            Response set = send(router, "s", new Command.SetModel("faux", "faux-1"));
            assertEquals("faux-1", set.data().path("id").asText());
            Response unknown = send(router, "u", new Command.SetModel("faux", "faux-9"));
            assertEquals("Model not found: faux/faux-9", unknown.error());
            send(router, "t", new Command.SetThinkingLevel(ThinkingLevel.HIGH));
            assertEquals("off", send(router, "ct2", new Command.CycleThinkingLevel()).data().path("level").asText(),
                    "high wraps around to off (faux-1 has no xhigh)");
            assertEquals("minimal", send(router, "ct3", new Command.CycleThinkingLevel()).data().path("level").asText());
            List<AgentEvent.ModelChanged> changes = harness.events(AgentEvent.ModelChanged.class);
            assertEquals(List.of("cycle", "set"), changes.stream().map(AgentEvent.ModelChanged::source).toList());
            JsonNode onDisk = Json.mapper().readTree(Files.readString(dir.resolve("settings.json")));
            assertEquals("faux-1", onDisk.path("defaultModel").asText());
            assertEquals("minimal", onDisk.path("defaultThinkingLevel").asText());
        }
    }

    @Test
    void queuesCanBeInspectedAndCleared() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("slow").withDelayMs(5000));
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            send(router, "p", new Command.Prompt("go"));
            // past the run's first steering poll: the reply is waiting on its delay
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(5000L)));
            send(router, "s", new Command.Steer("steer text", null));
            send(router, "f", new Command.Prompt("later", null, StreamingBehavior.FOLLOW_UP));
            assertEquals(2, send(router, "st", new Command.GetState()).data().path("pendingMessageCount").asInt());
            JsonNode cleared = send(router, "c", new Command.ClearQueue()).data();
            assertEquals("[\"steer text\"]", cleared.path("steering").toString());
            assertEquals("[\"later\"]", cleared.path("followUp").toString());
            assertEquals(0, send(router, "st2", new Command.GetState()).data().path("pendingMessageCount").asInt());
            send(router, "a", new Command.Abort());
        }
    }

    @Test
    void queueModesAreAppliedAndPersisted() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            send(router, "m", new Command.SetSteeringMode(QueueMode.ALL));
            send(router, "f", new Command.SetFollowUpMode(QueueMode.ALL));
            JsonNode state = send(router, "s", new Command.GetState()).data();
            assertEquals("all", state.path("steeringMode").asText());
            assertEquals("all", state.path("followUpMode").asText());
            JsonNode onDisk = Json.mapper().readTree(Files.readString(dir.resolve("settings.json")));
            assertEquals("all", onDisk.path("steeringMode").asText());
        }
    }

    @Test
    void lastAssistantTextIsAnEmptyObjectWhenThereIsNone() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            assertEquals("{}", send(router, "t", new Command.GetLastAssistantText()).data().toString());
        }
    }

    @Test
    void handlerFailuresNameTheCommandAndEchoTheId() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            Response empty = send(router, "n", new Command.SetSessionName("  "));
            assertEquals("set_session_name", empty.command());
            assertEquals("Session name cannot be empty", empty.error());
            Response steer = send(router, "e", new Command.Steer("", null));
            assertEquals("steer", steer.command());
            assertFalse(steer.success());
        }
    }

    @Test
    void sessionStatsCountTheContext() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("answer"));
            await().until(harness.session.prompt("question")::isDone);
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            JsonNode stats = send(router, "s", new Command.GetSessionStats()).data();
            assertEquals(1, stats.path("userMessages").asInt());
            assertEquals(1, stats.path("assistantMessages").asInt());
            assertEquals(2, stats.path("totalMessages").asInt());
            assertTrue(stats.path("tokens").path("total").asLong() > 0);
        }
    }
}
