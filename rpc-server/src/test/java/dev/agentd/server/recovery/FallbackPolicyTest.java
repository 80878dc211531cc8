package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.recovery.LimitScope;
import dev.agentd.server.recovery.SwitchReason;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FALLBACK §3: each error class → action, and the budget arithmetic, as a pure function of RunFacts. */
class FallbackPolicyTest {
    private static final RecoveryPolicy POLICY = new RecoveryPolicy();
    private static final RetryConfig THREE = new RetryConfig(true, 3, 1000, 60_000);
    private static final RecoveryAction FINISH = new RecoveryAction.Finish();
    /** A chain with a usable rung on another provider. */
    private static final FallbackView RUNG = Views.view(true, "p/m", true, true, false);
    /** A chain whose rungs are all on the current provider. */
    private static final FallbackView SAME_PROVIDER = Views.view(true, "p/m", true, false, false);
    /** A configured chain with nothing left. */
    private static final FallbackView SPENT = Views.view(true, "p/m", false, false, true);
    private static final FallbackView DISABLED = Views.view(false, "p/m", true, true, false);

    static AgentMessage.Assistant error(String text, Integer status, String type, Long retryAfterMs) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, retryAfterMs, null);
    }

    private static RecoveryAction decide(AgentMessage.Assistant last, int attempt, RetryConfig config,
            FallbackView view) {
        return POLICY.decide(Facts.after(last, config).attempt(attempt).fallback(view).build());
    }

    @Test
    void aFailedHalfOpenProbeSwitchesAfterItsOneRequest() {
        FallbackView probing = Views.view(true, "p/m", true, true, false, true);
        RecoveryAction action = unwrap(decide(error("503 overloaded", 503, null, null), 0, THREE, probing));
        RecoveryAction.SwitchModel switched = assertInstanceOf(RecoveryAction.SwitchModel.class, action);
        assertEquals(SwitchReason.TRANSIENT, switched.reason());
        assertEquals(1, switched.attempt());
        // with nowhere to go the probe's model keeps its retries
        FallbackView alone = Views.view(true, "p/m", false, false, false, true);
        assertInstanceOf(RecoveryAction.Retry.class, unwrap(decide(error("503 overloaded", 503, null, null), 0, THREE,
                alone)));
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // class, reply, chain attempt → expected switch reason (null: no switch) and announced attempt
                Arguments.of("transient within budget retries the same model", error("503 overloaded", 503, null,
                        null), 1, null, 0),
                Arguments.of("transient past the budget switches", error("503 overloaded", 503, null, null), 3,
                        SwitchReason.TRANSIENT, 1),
                Arguments.of("an over-budget hint switches at once", error("503 overloaded", 503, null, 120_000L), 0,
                        SwitchReason.TRANSIENT, 1),
                Arguments.of("billing switches at once", error("Your credit balance is too low to access the API",
                        400, "invalid_request_error", null), 0, SwitchReason.BILLING, 1),
                Arguments.of("quota switches at once", error("quota exceeded", 400, null, null), 0,
                        SwitchReason.BILLING, 1),
                Arguments.of("a rejected credential switches without a retry", error("401 invalid x-api-key", 401,
                        "authentication_error", null), 0, SwitchReason.HARD_ERROR, 1),
                Arguments.of("access denied switches without a retry", error("403 forbidden", 403, null, null), 0,
                        SwitchReason.HARD_ERROR, 1),
                Arguments.of("a hard error switches without a retry", error("400 invalid request: bad field", 400,
                        "invalid_request_error", null), 0, SwitchReason.HARD_ERROR, 1),
                Arguments.of("a refusal switches and shares the budget", error("refused", null, ErrorTypes.REFUSAL,
                        null), 1, SwitchReason.REFUSAL, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void errorClassToAction(String name, AgentMessage.Assistant reply, int attempt, SwitchReason reason,
            int announced) {
        RecoveryAction action = unwrap(decide(reply, attempt, THREE, RUNG));
        if (reason == null) {
            assertInstanceOf(RecoveryAction.Retry.class, action, name);
            return;
        }
        RecoveryAction.SwitchModel switched = assertInstanceOf(RecoveryAction.SwitchModel.class, action, name);
        assertEquals(reason, switched.reason(), name);
        assertEquals(announced, switched.attempt(), name);
        assertTrue(switched.continuesRun());
    }

    /** Usage limits without another credential block the one in use, then switch. */
    private static RecoveryAction unwrap(RecoveryAction action) {
        return action instanceof RecoveryAction.BlockCredential block ? block.then() : action;
    }

    @Test
    void aUsageLimitWithoutAFreeCredentialBlocksItAndSwitchesWithItsScope() {
        AgentMessage.Assistant limit = error("429 {\"error\":{\"type\":\"usage_limit_reached\",\"message\":"
                + "\"The usage limit has been reached\"}}", 429, "usage_limit_reached", 3_600_000L);
        RecoveryAction action = decide(limit, 0, THREE, RUNG);
        RecoveryAction.BlockCredential block = assertInstanceOf(RecoveryAction.BlockCredential.class, action);
        RecoveryAction.SwitchModel switched = assertInstanceOf(RecoveryAction.SwitchModel.class, block.then());
        assertEquals(SwitchReason.BILLING, switched.reason());
        assertEquals(LimitScope.ACCOUNT, switched.limit());
    }

    @Test
    void aRejectedCredentialDoesNotSwitchToTheSameProvider() {
        AgentMessage.Assistant rejected = error("401 unauthorized", 401, "authentication_error", null);
        RecoveryAction action = decide(rejected, 0, THREE, SAME_PROVIDER);
        assertEquals(new RecoveryAction.FallbackExhausted("p/m", "401 unauthorized",
                Classification.of(ErrorClass.CREDENTIAL_REJECTED), null, FINISH), action);
    }

    @Test
    void aHardErrorWithAToolCallIsNeverReplayed() {
        AgentMessage.Assistant withTool = new AgentMessage.Assistant(
                List.of(new ContentBlock.ToolCall("t1", "bash", dev.agentd.protocol.json.Json.mapper().createObjectNode(), null)), "api", "p", "m",
                Usage.ZERO, StopReason.ERROR, "400 invalid request", 0, 400, "invalid_request_error", null, null);
        assertEquals(FINISH, decide(withTool, 0, THREE, RUNG));
    }

    @Test
    void anOverflowNeverFallsBack() {
        AgentMessage.Assistant overflow = error("prompt is too long: 250000 tokens > 200000 maximum", 400,
                "invalid_request_error", null);
        RecoveryAction action = decide(overflow, 0, THREE, RUNG);
        assertTrue(!(unwrap(action) instanceof RecoveryAction.SwitchModel), action.toString());
    }

    @Test
    void maxRetriesZeroSwitchesOnTheFirstTransientErrorAndNeverOnARefusal() {
        RetryConfig zero = new RetryConfig(true, 0, 1000, 60_000);
        RecoveryAction first = decide(error("503 overloaded", 503, null, null), 0, zero, RUNG);
        assertEquals(SwitchReason.TRANSIENT, assertInstanceOf(RecoveryAction.SwitchModel.class, first).reason());
        assertEquals(FINISH, decide(error("refused", null, ErrorTypes.REFUSAL, null), 0, zero, RUNG));
    }

    @Test
    void aSpentChainIsAnnouncedBeforeTheFailedEnd() {
        RecoveryAction action = decide(error("503 overloaded", 503, null, null), 3, THREE, SPENT);
        assertEquals(new RecoveryAction.FallbackExhausted("p/m", "503 overloaded",
                new Classification(ErrorClass.TRANSIENT, null, TransientKind.OVERLOADED), null, new RecoveryAction.GiveUp(3, "503 overloaded", FINISH)),
                action);
    }

    @Test
    void withoutAChainOrWithFallbackDisabledTheDecisionIsThePlainRetryContract() {
        AgentMessage.Assistant overloaded = error("503 overloaded", 503, null, null);
        RunFacts plain = Facts.after(overloaded, THREE).attempt(3).build();
        for (FallbackView view : List.of(FallbackView.NONE, DISABLED,
                Views.view(true, null, false, false, false))) {
            assertEquals(POLICY.decide(plain), decide(overloaded, 3, THREE, view), view.toString());
            assertEquals(POLICY.decide(Facts.after(overloaded, THREE).attempt(1).build()),
                    decide(overloaded, 1, THREE, view));
        }
    }

    /**
     * The budget (FALLBACK §3): walking a chain of N rungs with maxRetries M, each rung counting
     * its attempts from 1, costs 1 + (N+1)·M requests, N switches, one exhausted announcement.
     */
    @Test
    void aFullyFailingChainCostsOnePlusNPlusOneTimesMaxRetriesRequests() {
        for (int rungs = 1; rungs <= 3; rungs++) {
            for (int max = 1; max <= 3; max++) {
                RetryConfig config = new RetryConfig(true, max, 1000, 60_000);
                int requests = 1;
                int switches = 0;
                int exhausted = 0;
                int attempt = 0;
                int rung = 0;
                while (true) {
                    FallbackView view = Views.view(true, "p/m", rung < rungs, rung < rungs, rung > 0);
                    RecoveryAction action = decide(error("503 overloaded", 503, null, null), attempt, config, view);
                    if (action instanceof RecoveryAction.SwitchModel switched) {
                        switches++;
                        rung++;
                        attempt = switched.attempt();
                    } else if (action instanceof RecoveryAction.Retry retry) {
                        attempt = retry.attempt();
                    } else {
                        RecoveryAction.FallbackExhausted end = assertInstanceOf(
                                RecoveryAction.FallbackExhausted.class, action);
                        exhausted++;
                        assertEquals(new RecoveryAction.GiveUp(max, "503 overloaded", FINISH), end.then());
                        break;
                    }
                    requests++;
                }
                assertEquals(1 + (rungs + 1) * max, requests, rungs + " rungs, maxRetries " + max);
                assertEquals(rungs, switches);
                assertEquals(1, exhausted);
            }
        }
    }
}
