package dev.agentd.server.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class QuotaBookTest {
    private final List<AgentEvent> events = new ArrayList<>();
    private final QuotaBook book = new QuotaBook(events::add);

    private static RateLimits unified(double utilization, long resetAt) {
        return new RateLimits(null, null, null, null, null,
                Map.of("5h", new RateLimits.Window(null, null, resetAt, utilization, "allowed")), "allowed",
                utilization, 100);
    }

    private List<Double> thresholds() {
        return events.stream().map(e -> ((AgentEvent.RateLimitUpdate) e).threshold()).toList();
    }

    @Test
    void crossingsAreAnnouncedOncePerSelectorAndReArmedByAReset() {
        book.record("anthropic/claude", unified(0.3, 10_000));
        book.record("anthropic/claude", unified(0.55, 10_000));
        book.record("anthropic/claude", unified(0.6, 10_000));
        book.record("openai/gpt", unified(0.85, 10_000));
        book.record("anthropic/claude", unified(0.96, 10_000));
        book.record("anthropic/claude", unified(0.01, 20_000));
        book.record("anthropic/claude", unified(0.51, 20_000));
        assertEquals(List.of(0.5, 0.8, 0.95, 0.5), thresholds());
        AgentEvent.RateLimitUpdate first = (AgentEvent.RateLimitUpdate) events.get(0);
        assertEquals("anthropic/claude", first.selector());
        assertEquals(0.55, first.utilization());
        assertEquals("anthropic/claude", first.limits().selector(), "the figures name their selector");
        assertEquals("openai/gpt", ((AgentEvent.RateLimitUpdate) events.get(1)).selector());
    }

    @Test
    void theSnapshotHoldsEachSelectorsLatestFigures() {
        book.record("a/1", unified(0.1, 10_000));
        book.record("b/2", unified(0.2, 10_000));
        book.record("a/1", unified(0.3, 10_000));
        assertEquals(List.of("b/2", "a/1"), book.snapshot().stream().map(RateLimits::selector).toList());
        assertEquals(0.3, book.latest("a/1").utilization());
        assertNull(book.latest("c/3"));
        assertEquals(OptionalDouble.of(0.3), book.utilization("a/1", 5_000));
        assertEquals(OptionalDouble.empty(), book.utilization("a/1", 10_000), "past its reset");
        assertEquals(OptionalDouble.empty(), book.utilization("c/3", 0));
    }

    @Test
    void theBookIsBoundedAndForgetsTheStalestSelector() {
        for (int i = 0; i <= QuotaBook.MAX_SELECTORS; i++) {
            book.record("p/m" + i, unified(0.1, 10_000));
        }
        assertEquals(QuotaBook.MAX_SELECTORS, book.snapshot().size());
        assertNull(book.latest("p/m0"));
    }

    @Test
    void theTapRecordsUnderTheCalledSelectorAndPassesEverythingOn() {
        RecordingListener inner = new RecordingListener(true);
        var tapped = book.tap(inner, "mock/m");
        RateLimits limits = unified(0.5, 10_000);
        tapped.onRateLimits(limits);
        assertEquals(List.of(limits), inner.rateLimits());
        assertEquals(true, tapped.wantsPartials());
        assertEquals("mock/m", book.latest("mock/m").selector());
        assertEquals(List.of(0.5), thresholds());
    }
}
