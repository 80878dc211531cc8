package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code circuits.json} written by someone else: records far in the future are clamped to the
 * configured bounds (N8), an oversized file is replaced instead of parsed and the record count
 * stays bounded (N14).
 */
class FileStateHostileTest {
    private static final long TEN_YEARS = 10L * 365 * 24 * 3600 * 1000;
    /** C = 1 s, max cooldown M = 3 s, lease L = 0.5 s. */
    private static final CircuitTimings TIMINGS = new CircuitTimings(1000, 3000, 500);

    @TempDir
    Path dir;
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    private Path file() {
        return dir.resolve(FileState.FILE_NAME);
    }

    @Test
    void farFutureRecordsKeepAModelSkippedForTheMaxCooldownAtMost() throws Exception {
        Files.writeString(file(), """
                {"version":1,"generation":5,"circuits":{
                 "alpha/open_10_years":{"openUntil":%d,"retryFloorUntil":0,"consecutiveOpens":1},
                 "alpha/open_until_max":{"openUntil":%d,"retryFloorUntil":%d,"consecutiveOpens":1},
                 "alpha/lease_forever":{"openUntil":0,"retryFloorUntil":0,"consecutiveOpens":1,
                   "lease":{"owner":"ghost:turn","generation":5,"expiresAt":%d}}}}
                """.formatted(now.get() + TEN_YEARS, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        FileState state = new FileState(file(), now::get);

        assertEquals(new Admission.Open(3000), state.admit("alpha/open_10_years", "a:turn", TIMINGS));
        assertEquals(new Admission.Open(3000), state.admit("alpha/open_until_max", "a:turn", TIMINGS));
        assertEquals(new Admission.Open(500), state.admit("alpha/lease_forever", "a:turn", TIMINGS));
        assertTrue(state.list(TIMINGS).stream().allMatch(view -> view.remainingMs() <= 3000), state.list(TIMINGS).toString());
        JsonNode written = Json.mapper().readTree(Files.readString(file())).path("circuits");
        assertEquals(now.get() + 3000, written.path("alpha/open_10_years").path("openUntil").longValue(),
                "the clamp is written back, so it does not move on with every read");

        now.addAndGet(500);
        assertFalse(state.admit("alpha/lease_forever", "a:turn", TIMINGS) instanceof Admission.Open,
                "the ghost's lease ended after the lease time");
        now.addAndGet(2500);
        assertInstanceOf(Admission.Probe.class, state.admit("alpha/open_10_years", "a:turn", TIMINGS));
        assertInstanceOf(Admission.Probe.class, state.admit("alpha/open_until_max", "a:turn", TIMINGS));
        // the far-future Retry-After floor no longer makes every re-opening last the maximum: doubled C
        assertEquals(1000 * 2, state.open("alpha/open_until_max", OptionalLong.empty(), TIMINGS));
    }

    @Test
    void anOversizedFileIsReplacedWithOneWarningNotParsed() throws Exception {
        long cap = 4096;
        StringBuilder huge = new StringBuilder("{\"version\":1,\"circuits\":{");
        for (int i = 0; huge.length() <= 2 * cap; i++) {
            huge.append(i == 0 ? "" : ",").append("\"p/m").append(i).append("\":{\"openUntil\":")
                    .append(now.get() + 60_000).append(",\"consecutiveOpens\":1}");
        }
        Files.writeString(file(), huge.append("}}").toString());
        FileState state = new FileState(file(), now::get, cap);

        assertEquals(List.of(), state.list(TIMINGS), "a lock-free read of the oversized file sees nothing");
        assertEquals(new Admission.Closed(), state.admit("p/m1", "a:turn", TIMINGS));
        assertTrue(Files.size(file()) < cap, "replaced by a fresh file");
        assertEquals(1000, state.open("p/m1", OptionalLong.empty(), TIMINGS));
        assertEquals(List.of(new CircuitView("p/m1", CircuitView.State.OPEN, 1000)), state.list(TIMINGS));
        assertTrue(state.status().shared());
    }

    @Test
    void recordsAreBoundedInCountAndNameLength() throws Exception {
        StringBuilder many = new StringBuilder("{\"version\":1,\"circuits\":{");
        int count = StateBook.MAX_RECORDS + 40;
        for (int i = 0; i < count; i++) {
            many.append(i == 0 ? "" : ",").append("\"p/m").append(i).append("\":{\"openUntil\":")
                    .append(now.get() + 1000 + i).append(",\"consecutiveOpens\":1}");
        }
        Files.writeString(file(), many.append("}}").toString());
        FileState state = new FileState(file(), now::get);
        CircuitTimings longMax = new CircuitTimings(1000, 1_000_000, 500);
        state.open("p/" + "x".repeat(StateJson.MAX_NAME_CHARS + 1), OptionalLong.empty(), longMax);
        JsonNode circuits = Json.mapper().readTree(Files.readString(file())).path("circuits");
        assertEquals(StateBook.MAX_RECORDS, circuits.size());
        assertTrue(circuits.has("p/m" + (count - 1)), "the latest-ending records are kept");
        assertFalse(circuits.has("p/m0"), "the earliest-ending ones go");
        assertFalse(circuits.has("p/" + "x".repeat(StateJson.MAX_NAME_CHARS + 1)), "an absurd selector is not stored");
    }

    @Test
    void theMemoryStoreIsBoundedByTheSameRule() {
        MemoryState memory = new MemoryState(now::get);
        CircuitTimings longMax = new CircuitTimings(1000, 1_000_000, 500);
        for (int i = 0; i < StateBook.MAX_RECORDS + 40; i++) {
            memory.open("p/m" + i, OptionalLong.of(1 + i), longMax);
        }
        assertTrue(memory.list(longMax).size() <= StateBook.MAX_RECORDS + 1, "" + memory.list(longMax).size());
    }
}
