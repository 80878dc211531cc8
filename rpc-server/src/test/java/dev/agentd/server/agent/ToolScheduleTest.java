package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolScheduleTest {
    private static ToolSchedule.Traits free() {
        return new ToolSchedule.Traits(false, Optional.empty());
    }

    private static ToolSchedule.Traits writes(String path) {
        return new ToolSchedule.Traits(false, Optional.of(path));
    }

    @Test
    void independentCallsWaitForNothing() {
        ToolSchedule plan = ToolSchedule.plan(List.of(free(), free(), writes("/a"), writes("/b")), false);
        assertEquals(List.of(Set.of(), Set.of(), Set.of(), Set.of()), plan.waitsFor());
        assertFalse(plan.serial());
    }

    @Test
    void aWriterWaitsForThePreviousWriterOfTheSameFile() {
        ToolSchedule plan = ToolSchedule.plan(List.of(writes("/a"), free(), writes("/a"), writes("/a")), false);
        assertEquals(List.of(Set.of(), Set.of(), Set.of(0), Set.of(2)), plan.waitsFor());
    }

    @Test
    void theSettingOrASequentialToolSerializesEverything() {
        ToolSchedule bySetting = ToolSchedule.plan(List.of(free(), free(), free()), true);
        assertEquals(List.of(Set.of(), Set.of(0), Set.of(0, 1)), bySetting.waitsFor());
        assertTrue(bySetting.serial());
        ToolSchedule byTool = ToolSchedule.plan(List.of(free(), new ToolSchedule.Traits(true, Optional.empty())), false);
        assertTrue(byTool.serial());
    }

    @Test
    void aSingleCallIsSerial() {
        assertTrue(ToolSchedule.plan(List.of(free()), false).serial());
    }
}
