package dev.agentd.server.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which earlier calls of one reply each call must wait for (SPEC §4), decided once before the
 * batch runs: nothing by default (pi 0.73 runs a reply's calls concurrently); every earlier call
 * when the batch is sequential (the {@code toolExecution:"sequential"} setting or a sequential-only
 * tool among the calls); the earlier calls that write the same file otherwise.
 */
record ToolSchedule(List<Set<Integer>> waitsFor) {

    /** What the schedule needs to know about one call. */
    record Traits(boolean sequentialOnly, Optional<String> writeTarget) {
    }

    ToolSchedule {
        waitsFor = waitsFor.stream().map(Set::copyOf).toList();
    }

    static ToolSchedule plan(List<Traits> calls, boolean sequentialSetting) {
        boolean sequential = sequentialSetting || calls.stream().anyMatch(Traits::sequentialOnly);
        List<Set<Integer>> waits = new ArrayList<>();
        Map<String, Integer> lastWriter = new HashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            Set<Integer> before = new TreeSet<>();
            if (sequential) {
                for (int j = 0; j < i; j++) {
                    before.add(j);
                }
            }
            Optional<String> target = calls.get(i).writeTarget();
            if (target.isPresent()) {
                Integer previous = lastWriter.put(target.get(), i);
                if (previous != null) {
                    before.add(previous); // transitively after every earlier writer of that file
                }
            }
            waits.add(before);
        }
        return new ToolSchedule(waits);
    }

    /** True when no two calls may overlap: the batch can run on the caller's thread. */
    boolean serial() {
        for (int i = 0; i < waitsFor.size(); i++) {
            if (waitsFor.get(i).size() < i) {
                return false;
            }
        }
        return true;
    }
}
