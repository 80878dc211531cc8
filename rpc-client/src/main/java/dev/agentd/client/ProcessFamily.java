package dev.agentd.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Descendants of the daemon (tool subprocesses and whatever they started). They are collected
 * while the daemon still lives: once it exits they are re-parented and can no longer be found.
 */
final class ProcessFamily {
    private ProcessFamily() {}

    static List<ProcessHandle> descendants(ProcessHandle root) {
        try {
            return root.descendants().toList();
        } catch (RuntimeException e) { // e.g. /proc not readable
            return List.of();
        }
    }

    static List<ProcessHandle> union(List<ProcessHandle> a, List<ProcessHandle> b) {
        Set<ProcessHandle> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return new ArrayList<>(all);
    }

    /** SIGTERM everything still alive, wait up to {@code timeout}, then SIGKILL the rest. */
    static void destroy(List<ProcessHandle> family, Duration timeout) {
        List<ProcessHandle> alive = family.stream().filter(ProcessHandle::isAlive).toList();
        if (alive.isEmpty()) {
            return;
        }
        // Grandchildren started since collection go too.
        alive = union(alive, alive.stream().flatMap(h -> descendants(h).stream()).toList());
        alive.forEach(ProcessHandle::destroy);
        List<ProcessHandle> stubborn = awaitExit(alive, timeout);
        stubborn.forEach(ProcessHandle::destroyForcibly);
        awaitExit(stubborn, timeout);
    }

    /** Waits (sharing one deadline) and returns those still alive. */
    private static List<ProcessHandle> awaitExit(List<ProcessHandle> handles, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : handles) {
            long left = Math.max(0, deadline - System.nanoTime());
            try {
                handle.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                alive.add(handle);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                alive.add(handle);
            }
        }
        alive.removeIf(handle -> !handle.isAlive());
        return alive;
    }
}
