package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.AGENT_START;
import static dev.agentd.client.FakeDaemon.TURN_START;
import static dev.agentd.client.FakeDaemon.agentEnd;
import static dev.agentd.client.FakeDaemon.assistantEnd;
import static dev.agentd.client.FakeDaemon.json;
import static dev.agentd.client.FakeDaemon.retryEnd;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.StreamingBehavior;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * pi 1.6's run-lifecycle signals in the client: {@code agent_settled} is a typed event and, once the
 * daemon is known to send it (a prompt answer with a disposition, or a settled event seen), the
 * waits end on it rather than on the inferred end; the disposition is returned. Daemons that send
 * neither keep the old inference (PromptAndWaitTest).
 */
class AgentSettledWaitTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private static final String STARTED = "{\"disposition\":\"started\"}";
    private static final String QUEUED = "{\"disposition\":\"queued\"}";

    private static String settled(boolean aborted) {
        return "{\"type\":\"agent_settled\",\"aborted\":" + aborted + "}";
    }

    private final FakeDaemon daemon = new FakeDaemon();
    private final List<AgentEvent> seen = new CopyOnWriteArrayList<>();
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private RpcClient client;

    private RpcClient start() {
        client = RpcClient.builder().streams(daemon.stdout(), daemon.stdin()).retryGrace(Duration.ofMillis(250))
                .start();
        client.addListener(seen::add);
        return client;
    }

    private void awaitSeen(int count) {
        await().until(() -> seen.size() >= count);
        assertEquals(count, seen.size());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        daemon.close();
        background.shutdownNow();
    }

    @Test
    void agentSettledIsATypedEvent() throws Exception {
        start();
        daemon.emit(settled(true));
        awaitSeen(1);
        assertEquals(new AgentEvent.AgentSettled(true), seen.get(0));
    }

    @Test
    void promptAndWaitEndsOnAgentSettledNotOnTheFinalLookingAgentEnd() throws Exception {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, json(STARTED));
            d.emit(AGENT_START, TURN_START, assistantEnd("stop"), agentEnd(false));
        });
        start();
        Future<PromptResult> result = background.submit(() -> client.promptAndWait("hi", LONG));
        awaitSeen(4);
        assertFalse(client.isIdle(), "agent_end{willRetry:false} but no agent_settled yet");
        assertFalse(result.isDone());
        // e.g. a follow-up delivered after the run: pi continues before it settles
        daemon.emit(AGENT_START, assistantEnd("stop"), agentEnd(false), settled(false));

        PromptResult done = result.get(20, TimeUnit.SECONDS);
        assertEquals("started", done.disposition());
        assertInstanceOf(AgentEvent.AgentSettled.class, done.events().get(done.events().size() - 1));
        assertEquals(2, done.events().stream().filter(AgentEvent.AgentEnd.class::isInstance).count());
        assertFalse(done.aborted());
        assertTrue(client.isIdle());
    }

    @Test
    void waitForIdleEndsOnAgentSettledAndItsAbortedFlagIsKept() throws Exception {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, json(STARTED));
            d.emit(AGENT_START, assistantEnd("error"), agentEnd(true));
        });
        start();
        assertEquals("started", client.prompt("hi"));
        awaitSeen(3);
        Future<?> idle = background.submit(() -> client.waitForIdle(LONG));
        // abort during the backoff: the chain ends without a run, then the daemon settles
        daemon.emit(retryEnd(false, 1, "Retry cancelled"));
        awaitSeen(4);
        assertFalse(client.isIdle(), "the inference would say idle here; the daemon has not settled");
        daemon.emit(settled(true));
        idle.get(20, TimeUnit.SECONDS);
        assertTrue(client.isIdle());
        assertEquals(new AgentEvent.AgentSettled(true), seen.get(seen.size() - 1));
    }

    @Test
    void aSettledEventAloneTeachesTheClientToWaitForTheNextOne() throws Exception {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, null); // no disposition: as from a daemon between the two pi features
            d.emit(AGENT_START, assistantEnd("stop"), agentEnd(false), settled(false));
        });
        start();
        client.promptAndWait("first", LONG);
        daemon.on("prompt", (command, d) -> {
            d.respond(command, null);
            d.emit(AGENT_START, assistantEnd("stop"), agentEnd(false));
        });
        Future<PromptResult> second = background.submit(() -> client.promptAndWait("second", LONG));
        awaitSeen(7);
        assertFalse(client.isIdle());
        assertFalse(second.isDone());
        daemon.emit(settled(false));
        assertNull(second.get(20, TimeUnit.SECONDS).disposition());
    }

    @Test
    void steerFollowUpAndAQueuedPromptReturnTheirDisposition() throws Exception {
        daemon.on("prompt", (command, d) -> {
            boolean queued = command.has("streamingBehavior");
            d.respond(command, json(queued ? QUEUED : STARTED));
            d.emit(queued ? new String[] {assistantEnd("stop"), agentEnd(false), settled(false)}
                    : new String[] {AGENT_START});
        });
        daemon.on("steer", (command, d) -> d.respond(command, json(QUEUED)));
        daemon.on("follow_up", (command, d) -> d.respond(command, json(QUEUED)));
        start();
        assertEquals("started", client.prompt("go"));
        awaitSeen(1);
        assertEquals("queued", client.steer("steer"));
        assertEquals("queued", client.followUp("later"));
        Future<PromptResult> joined = background.submit(() -> client.promptAndWait("more", null,
                StreamingBehavior.FOLLOW_UP, LONG));
        PromptResult result = joined.get(20, TimeUnit.SECONDS);
        assertEquals("queued", result.disposition());
        assertInstanceOf(AgentEvent.AgentSettled.class, result.events().get(result.events().size() - 1));
    }

    @Test
    void aHandledPromptStartsNoRunAndIsNotWaitedFor() throws Exception {
        daemon.on("prompt", (command, d) -> d.respond(command, json("{\"disposition\":\"handled\"}")));
        start();
        PromptResult result = client.promptAndWait("/command", LONG);
        assertEquals("handled", result.disposition());
        assertEquals(List.of(), result.events());
        assertTrue(client.isIdle());
    }

    @Test
    void olderDaemonsKeepTheInference() {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, null);
            d.emit(AGENT_START, assistantEnd("stop"), agentEnd(false));
        });
        PromptResult result = start().promptAndWait("hi", LONG);
        assertNull(result.disposition());
        assertInstanceOf(AgentEvent.AgentEnd.class, result.events().get(result.events().size() - 1));
        assertTrue(client.isIdle());
    }
}
