package dev.agentd.server.e2e;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.client.Dialect;
import dev.agentd.client.PromptFailedException;
import dev.agentd.client.PromptResult;
import dev.agentd.client.RpcClient;
import dev.agentd.client.RpcException;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.response.SessionState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Java client against the real agentd.jar (SPEC §9, issue "RpcClient against the real process"),
 * every test once per wire dialect: the pi-compatible records and JSON-RPC 2.0 (SPEC §3.7).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Dialect.class)
class RpcClientIT {
    private static final String OVERLOADED =
            "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    private static final Duration RUN = Duration.ofSeconds(30);

    @Parameter
    Dialect dialect;
    @TempDir
    Path dir;
    RpcClient client;
    final List<AgentEvent> startupEvents = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() throws IOException {
        client = start();
    }

    /** A daemon in this test's dialect ({@code --mode} is added by the client). */
    private RpcClient start(String... args) throws IOException {
        Path agentDir = dir.resolve("agent");
        Files.createDirectories(agentDir);
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":300}}");
        Map<String, String> env = new HashMap<>();
        env.put("AGENTD_DIR", agentDir.toString());
        env.put("AGENTD_FAUX_CHUNK_DELAY_MS", "1");
        for (String key : List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY")) {
            env.put(key, null); // removed: faux is the default model and a prompt to anthropic fails its preflight
        }
        RpcClient started = RpcClient.builder()
                .command(DaemonProcess.javaCommand())
                .args(args)
                .cwd(dir)
                .env(env)
                .dialect(dialect)
                .build();
        Runnable unsubscribe = started.addListener(startupEvents::add);
        started.start();
        unsubscribe.run();
        return started;
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void promptAndWaitReturnsTheEventsOfAWholeRun() {
        client.fauxEnqueue(null, List.of(FauxStep.text("The whole answer.")));
        List<AgentEvent> events = client.promptAndWait("hi", RUN).events();
        assertTrue(events.get(0) instanceof AgentEvent.AgentStart, events.toString());
        AgentEvent last = events.get(events.size() - 2); // pi 1.6: the run's agent_settled follows it
        assertTrue(last instanceof AgentEvent.AgentEnd end && Boolean.FALSE.equals(end.willRetry()));
        assertEquals(new AgentEvent.AgentSettled(false), events.get(events.size() - 1));
        assertEquals("The whole answer.", client.getLastAssistantText().orElseThrow());
        SessionState state = client.getState();
        assertFalse(state.isStreaming());
        assertEquals(2, state.messageCount());
        assertEquals("faux-1", state.model().id());
    }

    /** pi 1.6: the prompt's answer says what became of it, and waits end on the run's agent_settled. */
    @Test
    void thePromptsDispositionIsReturnedAndWaitsEndOnAgentSettled() {
        client.fauxEnqueue(null, List.of(FauxStep.text("first"), FauxStep.text("second")));
        List<AgentEvent> seen = Collections.synchronizedList(new ArrayList<>());
        client.addListener(seen::add);
        assertEquals("started", client.prompt("hi"));
        client.waitForIdle(RUN);
        assertEquals(new AgentEvent.AgentSettled(false), seen.get(seen.size() - 1), seen.toString());
        PromptResult result = client.promptAndWait("again", RUN);
        assertEquals("started", result.disposition());
        assertFalse(result.aborted());
        assertEquals("queued", client.followUp("nothing runs: queued for the next prompt"));
    }

    @Test
    void promptAndWaitReturnsOnlyAfterTheRetryChainEnds() {
        client.fauxEnqueue(null, List.of(FauxStep.error(OVERLOADED, 529), FauxStep.text("recovered")));
        List<SessionState> duringSleep = Collections.synchronizedList(new ArrayList<>());
        List<List<AgentMessage>> messagesDuringSleep = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<PromptResult> run = CompletableFuture.supplyAsync(() -> client.promptAndWait("hi", RUN));
        client.addListener(event -> {
            if (event instanceof AgentEvent.AutoRetryStart) {
                // listeners run on the reader thread: query from elsewhere
                CompletableFuture.runAsync(() -> {
                    duringSleep.add(client.getState());
                    messagesDuringSleep.add(client.getMessages());
                });
            }
        });
        PromptResult result = run.join();
        assertTrue(result.succeeded(), result.toString());
        assertEquals(Optional.of("recovered"), result.text());
        assertEquals(Optional.empty(), result.error());
        List<AgentEvent> events = result.events();
        List<String> types = events.stream().map(AgentEvent::type).toList();
        assertTrue(types.contains("auto_retry_start"), types.toString());
        assertEquals("agent_end", types.get(types.size() - 2));
        assertEquals("agent_settled", types.get(types.size() - 1), "pi 1.6: the wait ends on the run's settling");
        assertEquals(2, types.stream().filter("agent_end"::equals).count(), "both runs are in the result");
        AgentEvent.AutoRetryEnd end = events.stream().filter(AgentEvent.AutoRetryEnd.class::isInstance)
                .map(AgentEvent.AutoRetryEnd.class::cast).findFirst().orElseThrow();
        assertTrue(end.success());
        assertEquals(1, end.attempt());

        await().until(() -> duringSleep.size() == 1 && messagesDuringSleep.size() == 1);
        SessionState state = duringSleep.get(0);
        assertTrue(state.isRetrying(), state.toString());
        assertEquals(1, state.retryAttempt());
        assertEquals(1, messagesDuringSleep.get(0).size(), "the failed reply is gone from get_messages");
        assertTrue(messagesDuringSleep.get(0).get(0) instanceof AgentMessage.User);
    }

    @Test
    void promptAndWaitReturnsWhenTheChainIsCancelled() {
        client.setRetrySettings(null, 60_000L, null);
        client.fauxEnqueue(null, List.of(FauxStep.error(OVERLOADED, 529)));
        client.addListener(event -> {
            if (event instanceof AgentEvent.AutoRetryStart) {
                CompletableFuture.runAsync(client::abortRetry);
            }
        });
        PromptResult result = client.promptAndWait("hi", RUN);
        List<AgentEvent> events = result.events();
        AgentEvent last = events.get(events.size() - 2);
        assertEquals(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled"), last);
        assertEquals(new AgentEvent.AgentSettled(false), events.get(events.size() - 1), "abort_retry is not an abort");
        assertFalse(result.succeeded());
        assertEquals(Optional.of("Retry cancelled"), result.error());
        assertTrue(client.isIdle());
    }

    @Test
    void promptAndWaitSaysWhenRetriesRanOut() {
        client.setRetrySettings(1, 10L, null);
        client.fauxEnqueue(null, List.of(FauxStep.error(OVERLOADED, 529), FauxStep.error(OVERLOADED, 529)));
        PromptResult result = client.promptAndWait("hi", RUN);
        assertFalse(result.succeeded(), result.toString());
        assertEquals(Optional.of(OVERLOADED), result.error());
        assertEquals(1, result.failedRetryChain().orElseThrow().attempt());
        assertEquals(Optional.of(StopReason.ERROR), result.stopReason());
        assertEquals(Optional.of(529), result.finalMessage().map(AgentMessage.Assistant::errorStatus));
    }

    @Test
    void retryRerunsTheTurnWhoseChainFailedOnce() {
        client.setRetrySettings(1, 10L, null);
        client.fauxEnqueue(null, List.of(FauxStep.error(OVERLOADED, 529), FauxStep.error(OVERLOADED, 529)));
        assertFalse(client.promptAndWait("hi", RUN).succeeded());

        client.fauxEnqueue(null, List.of(FauxStep.text("recovered on demand")));
        PromptResult retried = client.retryAndWait(RUN);
        assertTrue(retried.succeeded(), retried.toString());
        assertEquals("started", retried.disposition());
        assertEquals(Optional.of("recovered on demand"), retried.text());
        assertFalse(retried.events().stream().anyMatch(AgentEvent.AutoRetryStart.class::isInstance),
                "one request, no chain");
        List<AgentMessage> messages = client.getMessages();
        assertEquals(2, messages.size(), "the failed reply left the context: " + messages);

        PromptFailedException refused = assertThrows(PromptFailedException.class, () -> client.retryAndWait(RUN));
        assertEquals("Nothing to retry: the last turn did not end with an error", refused.serverError());
        RpcException again = assertThrows(RpcException.class, client::retry);
        assertEquals(refused.serverError(), again.serverError());
        assertTrue(client.isIdle());
    }

    @Test
    void serverErrorsBecomeRpcExceptions() {
        RpcException error = assertThrows(RpcException.class, () -> client.setModel("nope", "missing"));
        assertEquals("Model not found: nope/missing", error.serverError());
        RpcException fork = assertThrows(RpcException.class, () -> client.fork("nope"));
        assertEquals("Invalid entry ID for forking: nope", fork.serverError());
        assertEquals(2, client.getAvailableModels().size());
    }

    @Test
    void theDaemonRunsInTheClientsDialect() {
        AgentEvent.Ready ready = (AgentEvent.Ready) startupEvents.get(0);
        assertEquals(dialect.mode(), ready.mode());
    }

    @Test
    void aPromptFailingItsPreflightThrowsPromptFailedException() throws IOException {
        client.close();
        client = start("--model", "anthropic/claude-sonnet-4-5");
        PromptFailedException failure = assertThrows(PromptFailedException.class,
                () -> client.promptAndWait("hi", RUN));
        assertTrue(failure.serverError().contains("anthropic"), failure.serverError());
        assertTrue(failure.events().isEmpty(), failure.events().toString());
        assertTrue(client.isIdle(), "a failed prompt starts no run");
    }

    @Test
    void closeLeavesNoProcessBehind() {
        long pid = client.pid().orElseThrow();
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        client.close();
        await().until(() -> ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true));
        client = null;
    }
}
