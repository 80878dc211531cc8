package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pi 1.x: the RPC bash command's output streams as bash_execution_update events, bounded. */
class UserBashStreamTest {
    @TempDir
    Path dir;

    @Test
    void theOutputStreamsInOrderWithTheRequestIdBeforeTheResultIsReturned() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            Results.Bash result = harness.session.bash("printf 'one\\n'; sleep 0.3; printf 'two\\n'", "req-1").get();
            List<AgentEvent.BashExecutionUpdate> updates = harness.events(AgentEvent.BashExecutionUpdate.class);
            assertFalse(updates.isEmpty());
            assertEquals("one\ntwo\n", updates.stream().map(AgentEvent.BashExecutionUpdate::delta)
                    .collect(Collectors.joining()), "all of it, in order, already when the result is back");
            assertTrue(updates.stream().allMatch(u -> "req-1".equals(u.id())));
            assertEquals("one\ntwo", result.output(), "the result as before (its final newline dropped)");
            JsonNode wire = Json.mapper().valueToTree(updates.get(0));
            assertEquals("bash_execution_update", wire.path("type").asText());
            assertEquals("req-1", wire.path("id").asText());
        }
    }

    @Test
    void withoutAnIdTheUpdatesHaveNone() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.session.bash("printf hi", null).get();
            List<AgentEvent.BashExecutionUpdate> updates = harness.events(AgentEvent.BashExecutionUpdate.class);
            assertEquals(List.of(new AgentEvent.BashExecutionUpdate(null, "hi")), updates);
            assertFalse(Json.mapper().valueToTree(updates.get(0)).has("id"));
            harness.session.bash("printf also").get();
            assertEquals(new AgentEvent.BashExecutionUpdate(null, "also"),
                    harness.events(AgentEvent.BashExecutionUpdate.class).get(1), "the id-less overload streams too");
        }
    }

    @Test
    void aCommandPrintingMegabytesStreamsNoMoreThanTheResultsBudget() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            Results.Bash result = harness.session.bash("head -c 3000000 /dev/zero | tr '\\0' 'x'", "big").get();
            String streamed = harness.events(AgentEvent.BashExecutionUpdate.class).stream()
                    .map(AgentEvent.BashExecutionUpdate::delta).collect(Collectors.joining());
            assertEquals(50 * 1024, streamed.length(), "the first 50 KiB, then nothing");
            assertTrue(streamed.chars().allMatch(c -> c == 'x'));
            assertTrue(result.truncated());
            assertTrue(result.fullOutputPath() != null, "the rest is in the full-output file");
        }
    }
}
