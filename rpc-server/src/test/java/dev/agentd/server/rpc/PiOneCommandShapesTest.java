package dev.agentd.server.rpc;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pi 1.6 command shapes through the router: bash streams under its id; clear_queue's answer. */
class PiOneCommandShapesTest {
    @TempDir
    Path dir;

    private final List<Response> responses = Collections.synchronizedList(new ArrayList<>());

    private Response send(CommandRouter router, String id, Command command) {
        router.dispatch(id, command, responses::add);
        await().until(() -> responses.stream().anyMatch(r -> id.equals(r.id())));
        return responses.stream().filter(r -> id.equals(r.id())).findFirst().orElseThrow();
    }

    @Test
    void theBashCommandsUpdatesRepeatItsRequestId() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            Response done = send(router, "req-7", new Command.Bash("printf streamed"));
            assertEquals("streamed", done.data().path("output").asText());
            assertEquals(List.of(new AgentEvent.BashExecutionUpdate("req-7", "streamed")),
                    harness.events(AgentEvent.BashExecutionUpdate.class));
        }
    }

    @Test
    void clearQueueAnswersWithTheTextsOfBothQueuesAsPi16() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CommandRouter router = new CommandRouter(harness.session, harness.script);
            send(router, "s", new Command.Steer("Change direction", null));
            send(router, "f", new Command.FollowUp("Summarize when finished", null));
            JsonNode data = send(router, "c", new Command.ClearQueue()).data();
            assertEquals(Json.mapper().createObjectNode().<com.fasterxml.jackson.databind.node.ObjectNode>set(
                    "steering", Json.mapper().createArrayNode().add("Change direction"))
                    .set("followUp", Json.mapper().createArrayNode().add("Summarize when finished")), data);
            JsonNode empty = send(router, "c2", new Command.ClearQueue()).data();
            assertEquals("{\"steering\":[],\"followUp\":[]}", empty.toString(), "both present when empty");
        }
    }
}
