package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Provider text is hostile: each pattern gets 1 MB of the input that would make a backtracking or
 * nested pattern quadratic (minutes) or recursive (StackOverflowError), uncut, and must finish well
 * within the bound, which is generous for a busy machine yet far below quadratic time.
 */
class ClassificationBoundsTest {
    private static final int MB = 1 << 20;
    private static final Duration BOUND = Duration.ofSeconds(10);

    static String repeat(String unit) {
        return unit.repeat(MB / unit.length() + 1);
    }

    static Stream<Arguments> worstCases() {
        return Stream.of(
                // the old `[a-z_]*spend_limit_exceeded` rescanned the run from every start position
                Arguments.of("QUOTA", ErrorClassifier.QUOTA.pattern(), repeat("a")),
                Arguments.of("QUOTA", ErrorClassifier.QUOTA.pattern(), repeat("a_") + "spend_limit_exceede"),
                Arguments.of("BILLING", ErrorClassifier.BILLING.pattern(), repeat("credit ")),
                Arguments.of("TRANSIENT_TEXT", ErrorClassifier.TRANSIENT_TEXT.pattern(), repeat("1a")),
                Arguments.of("TRANSIENT_TEXT", ErrorClassifier.TRANSIENT_TEXT.pattern(), repeat("connection ")),
                Arguments.of("RATE_LIMIT_TEXT", ErrorClassifier.RATE_LIMIT_TEXT.pattern(), repeat("4294")),
                Arguments.of("USAGE_LIMIT", ErrorClassifier.USAGE_LIMIT.pattern(), repeat("usage ")),
                Arguments.of("MODEL_SCOPED", ErrorClassifier.MODEL_SCOPED.pattern(), repeat("mode")),
                Arguments.of("CREDENTIAL_TEXT", ErrorClassifier.CREDENTIAL_TEXT.pattern(), repeat("invalid ")),
                Arguments.of("ACCESS_TEXT", ErrorClassifier.ACCESS_TEXT.pattern(), repeat("model is not available for ")),
                Arguments.of("REFUSAL_TEXT", ErrorClassifier.REFUSAL_TEXT.pattern(), repeat("blocked under ")),
                // the old `input token count.*exceeds` scanned to the end from every occurrence
                Arguments.of("PHRASES", OverflowDetector.PHRASES.pattern(), repeat("input token count ")),
                Arguments.of("PHRASES", OverflowDetector.PHRASES.pattern(), repeat("maximum context length is 1")),
                Arguments.of("PHRASES", OverflowDetector.PHRASES.pattern(), repeat("too large for model with 9")));
    }

    @ParameterizedTest(name = "{0} #{index}")
    @MethodSource("worstCases")
    void everyPatternIsLinearOnItsWorstCase(String name, Pattern pattern, String worst) {
        assertTimeoutPreemptively(BOUND, () -> {
            Matcher matcher = pattern.matcher(worst);
            while (matcher.find()) {
                // every match, as a caller looping over them would
            }
        }, name);
    }

    static AgentMessage.Assistant error(String text, Integer status, String type) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, null, null);
    }

    @Test
    void classifyCutsHugeFieldsFirst() {
        // a 60 KB error.type and a 1 MB message, as a hostile server (or an old session file) holds them
        AgentMessage.Assistant hostile = error(repeat("a"), 500, "a".repeat(60_000) + "spend_limit_exceeded");
        Classification result = assertTimeoutPreemptively(BOUND, () -> ErrorClassifier.classify(hostile, 100));
        assertEquals(ErrorClass.TRANSIENT, result.errorClass(), "the cut type no longer names a spend limit");
        AgentMessage.Assistant reason = error("Unhandled stop reason: " + "x".repeat(200_000), null, null);
        assertEquals(ErrorClass.HARD, assertTimeoutPreemptively(BOUND,
                () -> ErrorClassifier.classify(reason, 100)).errorClass());
        AgentMessage.Assistant overflowText = error(repeat("input token count "), 400, null);
        assertEquals(false, assertTimeoutPreemptively(BOUND, () -> OverflowDetector.isOverflow(overflowText, 100)));
    }
}
