package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.response.SessionState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Requests, typed data, errors and listeners, against a scripted daemon in attach mode. */
class RpcClientTest {
    private final FakeDaemon daemon = new FakeDaemon();
    private final List<String> protocolErrors = new CopyOnWriteArrayList<>();
    private final List<Throwable> listenerErrors = new CopyOnWriteArrayList<>();
    private RpcClient client;

    private RpcClient start(Duration requestTimeout) {
        client = RpcClient.builder()
                .streams(daemon.stdout(), daemon.stdin())
                .requestTimeout(requestTimeout)
                .onProtocolError(protocolErrors::add)
                .onListenerError(listenerErrors::add)
                .start();
        return client;
    }

    private RpcClient start() {
        return start(Duration.ofSeconds(10));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        daemon.close();
    }

    @Test
    void getStateDecodesTypedData() throws Exception {
        daemon.on("get_state", (command, d) -> d.respond(command, json("""
                {"model":{"id":"faux-1","name":"Faux","api":"faux","provider":"faux","contextWindow":128000},
                 "thinkingLevel":"high","isStreaming":true,"steeringMode":"one-at-a-time","followUpMode":"all",
                 "sessionId":"s1","messageCount":4,"autoRetryEnabled":true,"isRetrying":true,"retryAttempt":2,
                 "somethingNew":{"ignored":true}}""")));
        SessionState state = start().getState();

        assertEquals("faux/faux-1", state.model().selector());
        assertEquals(128000, state.model().contextWindow());
        assertEquals(ThinkingLevel.HIGH, state.thinkingLevel());
        assertEquals(QueueMode.ALL, state.followUpMode());
        assertTrue(state.isStreaming());
        assertTrue(state.isRetrying());
        assertEquals(2, state.retryAttempt());
        assertEquals(4, state.messageCount());
    }

    @Test
    void requestIdsAreSequentialAndEchoed() throws Exception {
        start();
        client.getState();
        assertEquals("req_1", FakeDaemon.id(daemon.take("get_state"))); // start()'s handshake
        assertEquals("req_2", FakeDaemon.id(daemon.take("get_state")));
    }

    @Test
    void nullDataBecomesEmptyOptionals() {
        daemon.on("cycle_model", (command, d) -> d.respondNull(command));
        daemon.on("cycle_thinking_level", (command, d) -> d.respondNull(command));
        daemon.on("get_last_assistant_text", (command, d) -> d.respond(command, json("{}")));
        start();

        assertEquals(Optional.empty(), client.cycleModel());
        assertEquals(Optional.empty(), client.cycleThinkingLevel());
        assertEquals(Optional.empty(), client.getLastAssistantText());
    }

    @Test
    void presentDataIsDecoded() {
        daemon.on("cycle_model", (command, d) -> d.respond(command, json(
                "{\"model\":{\"id\":\"faux-2\",\"provider\":\"faux\"},\"thinkingLevel\":\"low\",\"isScoped\":false}")));
        daemon.on("cycle_thinking_level", (command, d) -> d.respond(command, json("{\"level\":\"medium\"}")));
        daemon.on("get_last_assistant_text", (command, d) -> d.respond(command, json("{\"text\":\"Hi!\"}")));
        daemon.on("get_available_models", (command, d) -> d.respond(command, json(
                "{\"models\":[{\"id\":\"faux-1\",\"provider\":\"faux\"},{\"id\":\"faux-2\",\"provider\":\"faux\"}]}")));
        daemon.on("clear_queue", (command, d) -> d.respond(command, json("{\"steering\":[\"a\"],\"followUp\":[]}")));
        start();

        assertEquals("faux-2", client.cycleModel().orElseThrow().model().id());
        assertEquals(Optional.of(ThinkingLevel.MEDIUM), client.cycleThinkingLevel());
        assertEquals(Optional.of("Hi!"), client.getLastAssistantText());
        assertEquals(2, client.getAvailableModels().size());
        assertEquals(new Results.ClearedQueues(List.of("a"), List.of()), client.clearQueue());
    }

    @Test
    void commandsAreEncodedWithTheirFields() throws Exception {
        daemon.on("set_retry_settings", (command, d) -> d.respond(command, json(
                "{\"enabled\":true,\"maxRetries\":5,\"baseDelayMs\":2000,\"maxRetryDelayMs\":60000}")));
        start();

        Results.RetrySettings settings = client.setRetrySettings(5, null, null);

        assertEquals(5, settings.maxRetries());
        var sent = daemon.take("set_retry_settings");
        assertEquals(5, sent.get("maxRetries").asInt());
        assertFalse(sent.has("baseDelayMs"), "null fields are omitted: " + sent);
    }

    @Test
    void failureResponsesThrowWithTheServerError() {
        daemon.on("set_model", (command, d) -> d.refuse(command, "Model not found: nope/x"));
        daemon.on("abort", (command, d) -> d.refuse(command, "Nothing to abort"));
        start();

        RpcException e = assertThrows(RpcException.class, () -> client.setModel("nope", "x"));
        assertEquals("set_model", e.command());
        assertEquals("Model not found: nope/x", e.serverError());
        assertTrue(e.getMessage().contains("Model not found"), e.getMessage());
        // Unlike pi's client, commands without data throw too.
        assertEquals("Nothing to abort", assertThrows(RpcException.class, client::abort).serverError());
    }

    @Test
    void requestTimesOutWithCommandName() {
        start(Duration.ofMillis(200));
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class, client::getSessionStats);
        assertEquals("get_session_stats", e.command());
        assertTrue(e.getMessage().contains("get_session_stats"), e.getMessage());
    }

    @Test
    void requestAsyncDecodesAndFails() throws Exception {
        daemon.on("bash", (command, d) -> d.respond(command, json(
                "{\"output\":\"hi\\n\",\"exitCode\":0,\"cancelled\":false,\"truncated\":false}")));
        daemon.on("fork", (command, d) -> d.refuse(command, "Unknown entry"));
        start();

        Results.Bash bash = client.requestAsync(new Command.Bash("echo hi"), Results.Bash.class)
                .get(10, TimeUnit.SECONDS);
        assertEquals("hi\n", bash.output());
        CompletableFuture<Results.Fork> fork = client.requestAsync(new Command.Fork("x"), Results.Fork.class);
        ExecutionException e = assertThrows(ExecutionException.class, () -> fork.get(10, TimeUnit.SECONDS));
        assertEquals("Unknown entry", assertInstanceOf(RpcException.class, e.getCause()).serverError());
    }

    @Test
    void unknownEventTypesArriveAsUnknown() throws Exception {
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        start().addListener(events::add);

        daemon.emit("{\"type\":\"extension_ui_request\",\"steering\":[\"x\"]}", FakeDaemon.AGENT_START);

        await().until(() -> events.size() == 2);
        AgentEvent.Unknown unknown = assertInstanceOf(AgentEvent.Unknown.class, events.get(0));
        assertEquals("extension_ui_request", unknown.type());
        assertEquals("x", unknown.json().get("steering").get(0).asText());
        assertInstanceOf(AgentEvent.AgentStart.class, events.get(1));
        assertTrue(protocolErrors.isEmpty(), protocolErrors::toString);
    }

    @Test
    void throwingListenerDoesNotStopDelivery() throws Exception {
        List<AgentEvent> seen = new CopyOnWriteArrayList<>();
        start().addListener(event -> {
            throw new IllegalStateException("listener bug");
        });
        client.addListener(seen::add);

        daemon.emit(FakeDaemon.AGENT_START, FakeDaemon.agentEnd(false));

        await().until(() -> seen.size() == 2);
        assertEquals(2, listenerErrors.size());
        assertNull(client.getState().model()); // the reader thread still answers requests
    }

    @Test
    void unsubscribeStopsDelivery() throws Exception {
        List<AgentEvent> first = new CopyOnWriteArrayList<>();
        List<AgentEvent> second = new CopyOnWriteArrayList<>();
        Runnable unsubscribe = start().addListener(first::add);
        client.addListener(second::add);

        daemon.emit(FakeDaemon.AGENT_START);
        await().until(() -> second.size() == 1);
        unsubscribe.run();
        daemon.emit(FakeDaemon.TURN_START);
        await().until(() -> second.size() == 2);

        assertEquals(1, first.size());
    }

    @Test
    void garbageAndStrayResponsesAreNotFatal() throws Exception {
        List<Response> stray = new CopyOnWriteArrayList<>();
        start().addResponseListener(stray::add);

        daemon.writeRaw("this is not json\n[1,2]\n");
        daemon.emit("{\"type\":\"response\",\"command\":\"parse\",\"success\":false,"
                + "\"error\":\"Failed to parse command\"}");

        await().until(() -> stray.size() == 1);
        assertEquals("parse", stray.get(0).command());
        assertEquals(2, protocolErrors.size(), protocolErrors::toString);
        client.getState(); // still alive
    }

    @Test
    void streamEndFailsPendingAndLaterRequestsFast() throws Exception {
        start();
        CompletableFuture<Response> pending = client.send(new Command.GetSessionStats());
        daemon.take("get_session_stats");

        daemon.closeOutput();

        ExecutionException e = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
        CompletableFuture<Response> later = client.send(new Command.GetState());
        assertTrue(later.isCompletedExceptionally(), "fails at once, without a timeout");
        RpcException thrown = assertThrows(RpcException.class, client::getState);
        assertEquals("get_state", thrown.command());
    }

    @Test
    void closeFailsPendingRequests() throws Exception {
        start();
        CompletableFuture<Response> pending = client.send(new Command.GetSessionStats());

        client.close();
        client.close(); // idempotent

        ExecutionException e = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
        assertEquals("client closed", e.getCause().getMessage());
        assertThrows(RpcException.class, client::getState);
    }

    @Test
    void blockingCallFromListenerFailsInsteadOfDeadlocking() throws Exception {
        start().addListener(event -> client.getState());

        daemon.emit(FakeDaemon.AGENT_START);

        await().until(() -> listenerErrors.size() == 1);
        assertInstanceOf(IllegalStateException.class, listenerErrors.get(0));
    }
}
