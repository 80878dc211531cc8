package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The visitor that makes dispatch exhaustive: the compiler checks that every handler has a method
 * per action; this checks that every action calls its own method, and that a new action gets a
 * sample here (so it is dispatched at least once in a test).
 */
class RecoveryActionTest {
    private static final List<RecoveryAction> SAMPLES = List.of(
            new RecoveryAction.Finish(),
            new RecoveryAction.Retry(1, 2000, "e"),
            new RecoveryAction.SwitchCredential(1, "e", null),
            new RecoveryAction.BlockCredential(null, new RecoveryAction.Finish()),
            new RecoveryAction.Compact(RecoveryAction.Compact.OVERFLOW),
            new RecoveryAction.CompactionFailed("e"),
            new RecoveryAction.GiveUp(0, "e", new RecoveryAction.Finish()),
            new RecoveryAction.SwitchModel(SwitchReason.TRANSIENT,
                    Classification.of(ErrorClass.TRANSIENT), null, 1, "e", null, false, Views.RUNG),
            new RecoveryAction.FallbackExhausted("k", "e", new RecoveryAction.Finish()),
            new RecoveryAction.ResumeAtReset(1, 3000, ResetWait.USAGE_LIMIT, "e"));

    /** Answers the simple name of the record type its method is declared for. */
    private static final RecoveryAction.Handler<String> NAMES = new RecoveryAction.Handler<>() {
        @Override
        public String finish(RecoveryAction.Finish action) {
            return "Finish";
        }

        @Override
        public String retry(RecoveryAction.Retry action) {
            return "Retry";
        }

        @Override
        public String switchCredential(RecoveryAction.SwitchCredential action) {
            return "SwitchCredential";
        }

        @Override
        public String blockCredential(RecoveryAction.BlockCredential action) {
            return "BlockCredential";
        }

        @Override
        public String compact(RecoveryAction.Compact action) {
            return "Compact";
        }

        @Override
        public String compactionFailed(RecoveryAction.CompactionFailed action) {
            return "CompactionFailed";
        }

        @Override
        public String giveUp(RecoveryAction.GiveUp action) {
            return "GiveUp";
        }

        @Override
        public String switchModel(RecoveryAction.SwitchModel action) {
            return "SwitchModel";
        }

        @Override
        public String fallbackExhausted(RecoveryAction.FallbackExhausted action) {
            return "FallbackExhausted";
        }

        @Override
        public String resumeAtReset(RecoveryAction.ResumeAtReset action) {
            return "ResumeAtReset";
        }
    };

    @Test
    void everyPermittedActionHasASample() {
        Set<Class<?>> permitted = Arrays.stream(RecoveryAction.class.getPermittedSubclasses()).collect(Collectors.toSet());
        assertEquals(permitted, SAMPLES.stream().map(Object::getClass).collect(Collectors.toSet()));
    }

    @Test
    void everyActionDispatchesToItsOwnHandlerMethod() {
        for (RecoveryAction action : SAMPLES) {
            assertEquals(action.getClass().getSimpleName(), action.accept(NAMES));
        }
    }

    @Test
    void wrappersContinueAsWhatTheyWrap() {
        RecoveryAction retry = new RecoveryAction.Retry(1, 0, "e");
        assertEquals(true, new RecoveryAction.BlockCredential(5L, retry).continuesRun());
        assertEquals(false, new RecoveryAction.BlockCredential(5L, new RecoveryAction.Finish()).continuesRun());
        assertEquals(true, new RecoveryAction.SwitchCredential(1, "e", null).continuesRun());
    }
}
