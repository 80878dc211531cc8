package dev.agentd.server.rpc;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi 1.6's {@code data.disposition} on the answers to {@code prompt}, {@code steer} and
 * {@code follow_up}: {@code started} for a prompt that starts a run, {@code queued} for everything
 * queued into a running one (agentd has no input handlers, so never {@code handled}).
 */
class PromptDispositionTest {
    @TempDir
    Path dir;

    private final List<Response> responses = new CopyOnWriteArrayList<>();

    private Response send(CommandRouter router, String id, Command command) {
        router.dispatch(id, command, responses::add);
        await().until(() -> responses.stream().anyMatch(r -> id.equals(r.id())));
        return responses.stream().filter(r -> id.equals(r.id())).findFirst().orElseThrow();
    }

    private static String disposition(Response response) {
        assertTrue(response.success(), response.toString());
        return response.data().path("disposition").asText(null);
    }

    @Test
    void aPromptStartsARunAndEverythingSentDuringItIsQueued() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("slow").withDelayMs(5000), FauxStep.text("a"), FauxStep.text("b"),
                    FauxStep.text("c"));
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            assertEquals("started", disposition(send(router, "p", new Command.Prompt("go"))));
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(5000L)));
            assertEquals("queued", disposition(send(router, "s", new Command.Steer("steer text", null))));
            assertEquals("queued", disposition(send(router, "f", new Command.FollowUp("follow text", null))));
            assertEquals("queued", disposition(send(router, "ps",
                    new Command.Prompt("as steering", null, StreamingBehavior.STEER))));
            assertEquals("queued", disposition(send(router, "pf",
                    new Command.Prompt("as follow-up", null, StreamingBehavior.FOLLOW_UP))));
            assertTrue(send(router, "a", new Command.Abort()).success());
        }
    }

    @Test
    void steerAndFollowUpOnAnIdleSessionAreQueuedToo() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            assertEquals("queued", disposition(send(router, "s", new Command.Steer("later", null))));
            assertEquals("queued", disposition(send(router, "f", new Command.FollowUp("later", null))));
        }
    }

    @Test
    void theJsonRpcResultCarriesTheSameDisposition() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("ok"));
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompt\",\"params\":{\"message\":\"hi\"}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"follow_up\",\"params\":{\"message\":\"more\"}}\n";
            new JsonRpcMode(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                    new RpcOutput(new JsonlWriter(stdout, Json.mapper()), () -> { }),
                    new CommandRouter(harness.session, harness.script), 4096).serve();
            await().until(() -> stdout.toString(StandardCharsets.UTF_8).lines().count() == 2);
            List<JsonNode> replies = new ArrayList<>();
            for (String line : stdout.toString(StandardCharsets.UTF_8).split("\n")) {
                replies.add(Json.mapper().readTree(line));
            }
            JsonNode prompt = replies.stream().filter(r -> r.path("id").asInt() == 1).findFirst().orElseThrow();
            JsonNode followUp = replies.stream().filter(r -> r.path("id").asInt() == 2).findFirst().orElseThrow();
            assertEquals("{\"disposition\":\"started\"}", prompt.path("result").toString());
            assertEquals("{\"disposition\":\"queued\"}", followUp.path("result").toString());
        }
    }
}
