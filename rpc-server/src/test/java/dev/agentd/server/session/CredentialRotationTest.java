package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §5.5–5.6: a usage limit blocks the credential in use; a free one serves the retry at once. */
class CredentialRotationTest {
    private static final ProviderError USAGE_LIMIT = new ProviderError(
            "429 {\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has been reached\"}}",
            429, "usage_limit_reached", 3_600_000L, null);

    @TempDir
    Path dir;

    @Test
    void twoCredentialsSwitchAtOnceAndTheNextRequestCarriesTheOtherKey() {
        ScriptedProvider provider = new ScriptedProvider().fail(USAGE_LIMIT);
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "key-one", "key-two")
                .build()) {
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(0L)));
            harness.scheduler.advance(0);
            await().until(done::isDone);

            AgentEvent.AutoRetryStart start = harness.events(AgentEvent.AutoRetryStart.class).get(0);
            assertEquals(0, start.delayMs());
            assertEquals(1, start.attempt());
            List<String> keys = provider.apiKeys();
            assertEquals(2, keys.size());
            assertEquals(2, keys.stream().distinct().count(), "the retry must use the other credential: " + keys);
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 1, null)),
                    harness.events(AgentEvent.AutoRetryEnd.class));
        }
    }

    @Test
    void theSessionStaysOnItsCredentialAfterTheSwitch() {
        ScriptedProvider provider = new ScriptedProvider().fail(USAGE_LIMIT);
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "key-one", "key-two")
                .build()) {
            CompletableFuture<Void> first = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(0L)));
            harness.scheduler.advance(0);
            await().until(first::isDone);
            await().until(harness.session.prompt("again")::isDone);
            List<String> keys = provider.apiKeys();
            assertEquals(keys.get(1), keys.get(2), "selection is sticky for the session");
        }
    }

    @Test
    void aLimitWithNoOtherCredentialFreeStillBlocksTheOneInUse() {
        // key A: limited for 1 s -> switch to B; B: limited for 30 s while A is blocked -> B is blocked
        // too and the retry backs off 4 s, by which time A is free again: the retry must use A.
        ProviderError shortLimit = new ProviderError(USAGE_LIMIT.message(), 429, "usage_limit_reached", 1_000L, null);
        ProviderError longLimit = new ProviderError(USAGE_LIMIT.message(), 429, "usage_limit_reached", 30_000L, null);
        ScriptedProvider provider = new ScriptedProvider().fail(shortLimit).fail(longLimit);
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "key-one", "key-two")
                .build()) {
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(0L)));
            harness.scheduler.advance(0);
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(4000L)));
            harness.scheduler.advance(4000);
            await().until(done::isDone);

            assertEquals(List.of(0L, 4000L), harness.events(AgentEvent.AutoRetryStart.class).stream()
                    .map(AgentEvent.AutoRetryStart::delayMs).toList());
            List<String> keys = provider.apiKeys();
            assertEquals(3, keys.size());
            assertEquals(keys.get(0), keys.get(2), "the first credential's block expired; the second is blocked: "
                    + keys);
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 2, null)),
                    harness.events(AgentEvent.AutoRetryEnd.class));
        }
    }

    @Test
    void oneCredentialFallsBackToNormalBackoff() {
        ProviderError limitWithoutHint = new ProviderError(USAGE_LIMIT.message(), 429, "usage_limit_reached", null,
                null);
        ScriptedProvider provider = new ScriptedProvider().fail(limitWithoutHint);
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "only-key")
                .build()) {
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
            harness.scheduler.advance(2000);
            await().until(done::isDone);
            assertEquals(2000, harness.events(AgentEvent.AutoRetryStart.class).get(0).delayMs());
            assertEquals(List.of("only-key", "only-key"), provider.apiKeys());
        }
    }

    /** With resuming at the reset off (FALLBACK §11; on, the hour is waited for: ResumeAtResetSessionTest). */
    @Test
    void aHintBeyondTheMaximumEndsTheChainWhenNoCredentialIsFree() throws java.io.IOException {
        java.nio.file.Files.writeString(dir.resolve("settings.json"), "{\"retry\":{\"resumeAtResetMaxMs\":0}}");
        ScriptedProvider provider = new ScriptedProvider().fail(USAGE_LIMIT);
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "only-key")
                .build()) {
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(done::isDone);
            assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 0,
                    "Provider requested retry delay 3600000ms, exceeding configured maximum 60000ms")),
                    harness.events(AgentEvent.AutoRetryEnd.class));
            assertEquals(1, provider.requests().size());
        }
    }
}
