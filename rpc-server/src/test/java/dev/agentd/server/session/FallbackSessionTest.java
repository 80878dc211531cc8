package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.sessionfile.SessionFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model fallback in a real session on fake time (FALLBACK §3, §5, §8): the faux provider serves
 * faux-1 (the primary) and faux-2 (its one fallback rung), each request consuming a scripted step.
 */
class FallbackSessionTest {
    private static final String PRIMARY = "faux/faux-1";
    private static final String RUNG = "faux/faux-2";

    @TempDir
    Path dir;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        harness = SessionHarness.builder(dir).persistent().build();
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    private void chain(int maxRetries) {
        harness.session.fallback().setChain(PRIMARY, List.of(RUNG));
        harness.session.settings().setRetry(maxRetries, 1L, 60_000L);
    }

    private static FauxStep overloaded() {
        return FauxStep.error("503 overloaded", 503);
    }

    private static FauxStep refusal() {
        return new FauxStep(null, null, null, null, null, "The model refused to answer", null, ErrorTypes.REFUSAL,
                null, null, null, null, null);
    }

    private List<Long> delays() {
        return harness.events(AgentEvent.AutoRetryStart.class).stream().map(AgentEvent.AutoRetryStart::delayMs).toList();
    }

    private List<String> fallbackTypes() {
        return harness.types().stream().filter(type -> type.startsWith("retry_fallback") || type.startsWith("auto_retry")
                || type.equals("model_changed")).toList();
    }

    @Test
    void aFullyFailingChainCostsOnePlusNPlusOneTimesMaxRetriesAndEndsOnce() {
        chain(2);
        for (int i = 0; i < 1 + 2 * 2; i++) {
            harness.enqueue(overloaded());
        }
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, PRIMARY, PRIMARY, RUNG, RUNG), harness.replyModels());
        // the switch is attempt 1 of the rung (delay 0), so its next backoff is attempt 2's
        assertEquals(List.of(1L, 2L, 0L, 2L), delays(), "two backoffs, the zero-delay switch, one backoff");
        assertEquals(List.of(new AgentEvent.RetryFallbackApplied(PRIMARY, RUNG, PRIMARY, "transient", null)),
                harness.events(AgentEvent.RetryFallbackApplied.class));
        assertEquals(List.of(new AgentEvent.RetryFallbackExhausted(PRIMARY, "503 overloaded")),
                harness.events(AgentEvent.RetryFallbackExhausted.class));
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 2, "503 overloaded")),
                harness.events(AgentEvent.AutoRetryEnd.class));
        List<String> types = fallbackTypes();
        assertEquals("retry_fallback_exhausted", types.get(types.size() - 2), types.toString());
        assertEquals("auto_retry_end", types.get(types.size() - 1));
    }

    @Test
    void theSwitchAndTheSuccessAreAnnouncedInTheDocumentedOrder() {
        chain(0);
        harness.enqueue(overloaded(), FauxStep.text("served by the rung"));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels(), "maxRetries 0 switches on the first error");
        assertEquals(List.of("model_changed", "retry_fallback_applied", "auto_retry_start",
                "retry_fallback_succeeded", "auto_retry_end"), fallbackTypes());
        List<String> types = harness.types();
        int firstEnd = types.indexOf("agent_end");
        assertTrue(firstEnd < types.indexOf("model_changed"), "agent_end{willRetry} precedes the switch: " + types);
        assertEquals(List.of(0L), delays());
        assertEquals(new AgentEvent.ModelChanged(harness.session.models().current(),
                harness.session.models().thinkingLevel(), "fallback"),
                harness.events(AgentEvent.ModelChanged.class).get(0));
        assertEquals(List.of(new AgentEvent.RetryFallbackSucceeded(RUNG, PRIMARY)),
                harness.events(AgentEvent.RetryFallbackSucceeded.class));
        assertEquals(new AgentEvent.AutoRetryEnd(true, 1, null), harness.events(AgentEvent.AutoRetryEnd.class).get(0));
    }

    @Test
    void withoutAChainTheEventsAreExactlyThePlainRetryContract() {
        harness.session.settings().setRetry(3, 1L, 60_000L);
        harness.enqueue(overloaded(), overloaded(), FauxStep.text("ok"));
        harness.promptToEnd("hi");
        assertEquals(List.of("auto_retry_start", "auto_retry_start", "auto_retry_end"), fallbackTypes());
        assertEquals(List.of(new AgentEvent.AutoRetryStart(1, 3, 1, "503 overloaded"),
                new AgentEvent.AutoRetryStart(2, 3, 2, "503 overloaded")),
                harness.events(AgentEvent.AutoRetryStart.class));
        assertEquals(List.of(PRIMARY, PRIMARY, PRIMARY), harness.replyModels());
    }

    @Test
    void fallbackDisabledKeepsThePlainContractEvenWithAChain() {
        chain(1);
        harness.session.fallback().setEnabled(false);
        harness.enqueue(overloaded(), overloaded());
        harness.promptToEnd("hi");
        assertEquals(List.of("auto_retry_start", "auto_retry_end"), fallbackTypes());
        assertEquals(List.of(PRIMARY, PRIMARY), harness.replyModels());
    }

    @Test
    void theNextPromptRevertsOnceThePrimaryCooledDown() {
        chain(0);
        harness.enqueue(overloaded(), FauxStep.text("rung"), FauxStep.text("rung again"), FauxStep.text("primary"));
        harness.promptToEnd("one");
        harness.promptToEnd("two");
        assertEquals(List.of(PRIMARY, RUNG, RUNG), harness.replyModels(), "the primary is still cooling");
        harness.scheduler.advance(75_001); // overloaded cools 45 s + at most 30 s of jitter
        harness.promptToEnd("three");
        assertEquals(PRIMARY, harness.replyModels().get(3));
        assertEquals(List.of(new AgentEvent.RetryFallbackReverted(RUNG, PRIMARY, null)),
                harness.events(AgentEvent.RetryFallbackReverted.class));
        assertEquals("fallback-revert", harness.events(AgentEvent.ModelChanged.class).get(1).source());
        assertNull(harness.session.fallback().state().active());
    }

    @Test
    void aRevertRestoresTheOriginalThinkingLevelUnlessTheUserChangedIt() {
        chain(0);
        harness.session.models().setThinkingLevel(ThinkingLevel.HIGH);
        harness.enqueue(overloaded(), FauxStep.text("rung"), FauxStep.text("primary"));
        harness.promptToEnd("one");
        assertEquals(ThinkingLevel.OFF, harness.session.models().thinkingLevel(), "faux-2 has no reasoning");
        harness.scheduler.advance(75_001);
        harness.promptToEnd("two");
        assertEquals(PRIMARY, harness.replyModels().get(2));
        assertEquals(ThinkingLevel.HIGH, harness.session.models().thinkingLevel());
    }

    @Test
    void revertPolicyNeverStaysOnTheFallback() {
        chain(0);
        harness.session.fallback().setRevertPolicy("never");
        harness.enqueue(overloaded(), FauxStep.text("rung"), FauxStep.text("still the rung"));
        harness.promptToEnd("one");
        harness.scheduler.advance(10 * 60_000);
        harness.promptToEnd("two");
        assertEquals(List.of(PRIMARY, RUNG, RUNG), harness.replyModels());
        assertEquals(List.of(), harness.events(AgentEvent.RetryFallbackReverted.class));
        assertThrows(IllegalArgumentException.class, () -> harness.session.fallback().setRevertPolicy("sometimes"));
    }

    @Test
    void billingPinsTheFallbackForGood() {
        chain(3);
        harness.enqueue(FauxStep.error("Your credit balance is too low to access the API", 400),
                FauxStep.text("rung"), FauxStep.text("rung again"));
        harness.promptToEnd("one");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels(), "billing switches without a same-model retry");
        assertEquals("billing", harness.events(AgentEvent.RetryFallbackApplied.class).get(0).reason());
        harness.scheduler.advance(2 * 60 * 60_000L);
        harness.promptToEnd("two");
        assertEquals(RUNG, harness.replyModels().get(2), "a billing pin never releases");
        Results.FallbackEpisode active = harness.session.fallback().state().active();
        assertEquals(new Results.FallbackEpisode(PRIMARY, PRIMARY, true, "billing"), active);
    }

    @Test
    void aRefusalSwitchesAtOnceAndPinsUntilACompaction() throws Exception {
        harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(1));
        chain(3);
        harness.enqueue(refusal(), FauxStep.text("rung"), FauxStep.text("rung again"), FauxStep.text("summary"),
                FauxStep.text("primary"));
        harness.promptToEnd("one");
        assertEquals(List.of(0L), delays());
        assertEquals("refusal", harness.events(AgentEvent.RetryFallbackApplied.class).get(0).reason());
        harness.promptToEnd("two");
        assertEquals(RUNG, harness.replyModels().get(2), "pinned by the refusal");
        assertEquals("refusal", harness.session.fallback().state().active().pinReason());
        harness.session.compact(null).get();
        harness.promptToEnd("three");
        assertEquals(PRIMARY, harness.replyModels().get(3), "the compaction released the pin; refusals do not cool");
    }

    @Test
    void aManualModelChangeEndsTheEpisode() {
        chain(0);
        harness.enqueue(overloaded(), FauxStep.text("rung"), FauxStep.text("user's choice"));
        harness.promptToEnd("one");
        assertEquals(PRIMARY, harness.session.fallback().state().active().originalSelector());
        harness.session.models().set("faux", "faux-2");
        assertNull(harness.session.fallback().state().active());
        harness.scheduler.advance(10 * 60_000);
        harness.promptToEnd("two");
        assertEquals(RUNG, harness.replyModels().get(2), "no revert after the user chose the model");
        assertEquals(List.of(), harness.events(AgentEvent.RetryFallbackReverted.class));
    }

    @Test
    void aResumedSessionStartsOnThePrimaryNotOnTheFallback() throws Exception {
        chain(0);
        harness.enqueue(overloaded(), FauxStep.text("rung"));
        harness.promptToEnd("one");
        assertEquals(RUNG, harness.session.models().current().provider() + "/" + harness.session.models().current().id());
        SessionFile saved = SessionFile.load(Path.of(harness.session.sessionFile()), System::currentTimeMillis);
        assertTrue(Files.readString(Path.of(harness.session.sessionFile())).contains("\"reason\":\"fallback\""),
                "the switch is journalled with its reason");
        try (SessionHarness resumed = SessionHarness.builder(dir).sessionFile(saved).build()) {
            assertEquals(FauxModels.FAUX_1, resumed.session.models().current());
        }
    }

    @Test
    void stateListsChainsCooldownsAndRefusesAnInvalidChain() {
        chain(0);
        harness.enqueue(overloaded(), FauxStep.text("rung"));
        harness.promptToEnd("one");
        Results.FallbackState state = harness.session.fallback().state();
        assertEquals(List.of(RUNG), state.chains().get(PRIMARY));
        assertEquals(PRIMARY, state.cooldowns().get(0).selector());
        assertTrue(state.cooldowns().get(0).remainingMs() >= 45_000);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> harness.session.fallback().setChain(PRIMARY, List.of("nope/missing")));
        assertTrue(refused.getMessage().contains("nope/missing"), refused.getMessage());
        assertEquals(List.of(RUNG), harness.session.fallback().state().chains().get(PRIMARY), "nothing saved");
        harness.session.fallback().setChain(PRIMARY, List.of());
        assertNull(harness.session.fallback().state().chains().get(PRIMARY), "[] is a tombstone");
        harness.session.fallback().removeChain(PRIMARY);
        assertTrue(harness.session.fallback().state().chains().isEmpty());
    }
}
