package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RPC bash command: output into the next prompt's context; abort_bash. */
class UserBashTest {
    @TempDir
    Path dir;

    @Test
    void bashOutputEntersTheNextPromptsProviderRequest() throws Exception {
        ScriptedProvider provider = new ScriptedProvider();
        try (SessionHarness harness = SessionHarness.builder(dir).provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "k").build()) {
            Results.Bash result = harness.session.bash("echo hello from bash; exit 3").get();
            assertEquals("hello from bash", result.output().strip());
            assertEquals(3, result.exitCode());
            await().until(() -> harness.session.messages().size() == 1);
            await().until(harness.session.prompt("what did it print?")::isDone);

            List<AgentMessage> sent = provider.requests().get(0).messages();
            assertEquals(List.of("bashExecution", "user"), sent.stream().map(AgentMessage::role).toList());
            AgentMessage.BashExecution bash = (AgentMessage.BashExecution) sent.get(0);
            assertEquals("echo hello from bash; exit 3", bash.command());
            assertEquals(3, bash.exitCode());
        }
    }

    @Test
    void bashDuringARunWaitsForTheNextPrompt() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(dev.agentd.protocol.command.FauxStep.text("slow").withDelayMs(1000));
            CompletableFuture<Void> run = harness.session.prompt("first");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(1000L)));
            harness.session.bash("echo during").get();
            harness.scheduler.advance(1000);
            await().until(run::isDone);
            List<String> roles = harness.session.messages().stream().map(AgentMessage::role).toList();
            assertTrue(roles.equals(List.of("user", "assistant")) || roles.equals(List.of("user", "assistant",
                    "bashExecution")), roles.toString());
            await().until(harness.session.prompt("second")::isDone);
            List<String> after = harness.session.messages().stream().map(AgentMessage::role).toList();
            assertEquals(List.of("user", "assistant", "bashExecution", "user", "assistant"), after);
        }
    }

    @Test
    void abortBashKillsTheCommand() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CompletableFuture<Results.Bash> running = harness.session.bash("echo started; sleep 30");
            await().until(() -> ProcessHandle.current().descendants()
                    .anyMatch(process -> process.info().commandLine().orElse("").contains("sleep 30")));
            harness.session.abortBash();
            Results.Bash result = running.get();
            assertTrue(result.cancelled());
            assertNull(result.exitCode());
            await().until(() -> ProcessHandle.current().descendants()
                    .noneMatch(process -> process.info().commandLine().orElse("").contains("sleep 30")));
        }
    }
}
