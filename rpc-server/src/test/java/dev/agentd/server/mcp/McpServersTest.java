package dev.agentd.server.mcp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.McpServerStatus;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** One session's servers, over links the test controls (the SDK side is McpStdioIT's). */
class McpServersTest {
    private final List<String> problems = new CopyOnWriteArrayList<>();

    private static McpServerSpec spec(String name, long timeoutMs) {
        return new McpServerSpec(name, new McpServerSpec.Stdio("x", List.of(), Map.of(), Path.of("/")), timeoutMs, "test");
    }

    private static JsonNode tool(String name) {
        return Json.mapper().createObjectNode().put("name", name).put("description", "d")
                .set("inputSchema", Json.mapper().createObjectNode().put("type", "object"));
    }

    /** A link whose calls complete when the test says. */
    private static final class FakeLink implements McpLink {
        final List<JsonNode> tools;
        final List<CompletableFuture<JsonNode>> calls = new CopyOnWriteArrayList<>();
        final List<String> cancelled = new CopyOnWriteArrayList<>();
        final List<String> tokens = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        FakeLink(List<JsonNode> tools) {
            this.tools = tools;
        }

        @Override
        public List<JsonNode> tools() {
            return tools;
        }

        @Override
        public CompletableFuture<JsonNode> call(String tool, JsonNode arguments, String progressToken) {
            CompletableFuture<JsonNode> call = new CompletableFuture<>();
            tokens.add(progressToken);
            calls.add(call);
            return call;
        }

        @Override
        public void cancel(String progressToken, String reason) {
            cancelled.add(reason);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void connectedServersOfferNamespacedToolsAndAFailedOneIsReportedOnce() {
        FakeLink link = new FakeLink(List.of(tool("echo"), tool("add")));
        McpServers servers = McpServers.startWith(List.of(spec("good", 1000), spec("bad", 1000)), problems::add,
                s -> {
                    if (s.name().equals("bad")) {
                        throw new IllegalStateException("cannot start 'nope': No such file");
                    }
                    return link;
                });
        servers.awaitReady(CancellationToken.none());
        assertEquals(List.of("mcp__good__echo", "mcp__good__add"), servers.tools().stream().map(Tool::name).toList());
        List<McpServerStatus> status = servers.status();
        assertEquals(new McpServerStatus("good", "stdio", "connected", 2, null), status.get(0));
        assertEquals("failed", status.get(1).status());
        assertTrue(status.get(1).error().contains("No such file"), status.get(1).error());
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("'bad'") && problems.get(0).contains("goes on without"), problems.get(0));
        assertEquals(1, servers.warnings().size());
        servers.close();
        assertTrue(link.closed);
    }

    @Test
    void aChangedToolListReplacesTheTools() {
        FakeLink link = new FakeLink(List.of(tool("a")));
        McpServers servers = McpServers.startWith(List.of(spec("s", 1000)), problems::add, s -> link);
        servers.awaitReady(CancellationToken.none());
        // What the SDK tells of a server arrives on its events.
        McpLink.Events server = eventsOf(servers);
        server.toolsChanged(List.of(tool("b"), tool("c")));
        assertEquals(List.of("mcp__s__b", "mcp__s__c"), servers.tools().stream().map(Tool::name).toList());
        server.closed("the server closed its stdout");
        assertEquals(List.of(), servers.tools());
        assertEquals("failed", servers.status().get(0).status());
        assertTrue(problems.get(0).contains("ended its connection: the server closed its stdout"), problems.toString());
    }

    @Test
    void aCallReturnsTheResultAndProgressReachesTheUpdates() throws Exception {
        FakeLink link = new FakeLink(List.of(tool("slow")));
        McpServers servers = McpServers.startWith(List.of(spec("s", 60_000)), problems::add, s -> link);
        servers.awaitReady(CancellationToken.none());
        Tool slow = servers.tools().get(0);
        List<String> updates = new CopyOnWriteArrayList<>();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return slow.execute("c1", Json.mapper().createObjectNode(), CancellationToken.none(),
                        output -> updates.add(output.content().toString()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().until(() -> !link.calls.isEmpty());
        eventsOf(servers).progress(link.tokens.get(0), 1, 2.0, "half way");
        assertTrue(updates.get(0).contains("progress 1/2: half way"), updates.toString());
        link.calls.get(0).complete(Json.mapper().readTree("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"));
        assertTrue(result.get().content().toString().contains("done"));
    }

    @Test
    void cancellingTheRunEndsTheCallAndTellsTheServer() throws Exception {
        FakeLink link = new FakeLink(List.of(tool("slow")));
        McpServers servers = McpServers.startWith(List.of(spec("s", 60_000)), problems::add, s -> link);
        servers.awaitReady(CancellationToken.none());
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> execute(servers, cancel));
        await().until(() -> !link.calls.isEmpty());
        cancel.cancel();
        ToolResult ended = result.get();
        assertTrue(ended.isError());
        assertTrue(ended.content().toString().contains("cancelled"), ended.content().toString());
        assertEquals(List.of("cancelled"), link.cancelled);
        assertTrue(link.calls.get(0).isCancelled());
    }

    @Test
    void aServerThatDiesEndsItsCallsWithTheReason() throws Exception {
        FakeLink link = new FakeLink(List.of(tool("slow")));
        McpServers servers = McpServers.startWith(List.of(spec("s", 60_000)), problems::add, s -> link);
        servers.awaitReady(CancellationToken.none());
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(
                () -> execute(servers, CancellationToken.none()));
        await().until(() -> !link.calls.isEmpty());
        eventsOf(servers).closed("the server closed its stdout");
        ToolResult ended = result.get();
        assertTrue(ended.isError());
        assertTrue(ended.content().toString().contains("ended its connection"), ended.content().toString());
    }

    /** Its subject is the timeout: a silent server's call ends after it, with a message naming it. */
    @Test
    void aSilentServerTimesOut() throws Exception {
        FakeLink link = new FakeLink(List.of(tool("slow")));
        McpServers servers = McpServers.startWith(List.of(spec("s", 200)), problems::add, s -> link);
        servers.awaitReady(CancellationToken.none());
        long start = System.nanoTime();
        ToolResult ended = execute(servers, CancellationToken.none());
        assertTrue(System.nanoTime() - start >= 200_000_000L);
        assertTrue(ended.isError());
        assertTrue(ended.content().toString().contains("did not answer slow within 200 ms"), ended.content().toString());
        assertEquals(List.of("timed out"), link.cancelled);
    }

    @Test
    void theFirstRunWaitsForAServerStillStartingAndCancelEndsTheWait() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        McpServers servers = McpServers.startWith(List.of(spec("s", 1000)), problems::add, s -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new FakeLink(List.of(tool("t")));
        });
        assertEquals("starting", servers.status().get(0).status());
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> servers.awaitReady(cancel));
        cancel.cancel();
        waiting.get(); // returns although the server still starts
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> servers.awaitReady(CancellationToken.none()));
        release.countDown();
        second.get();
        assertEquals(1, servers.tools().size());
    }

    private static ToolResult execute(McpServers servers, CancellationToken cancel) {
        try {
            return servers.tools().get(0).execute("c", Json.mapper().createObjectNode(), cancel, output -> {});
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static McpLink.Events eventsOf(McpServers servers) {
        return servers.eventsFor(0);
    }
}
