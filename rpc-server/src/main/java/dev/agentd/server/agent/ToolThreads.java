package dev.agentd.server.agent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads concurrent tool calls run on: daemon threads (a stuck tool never blocks exit), made on demand. */
final class ToolThreads {
    private static final AtomicInteger COUNT = new AtomicInteger();

    static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "agentd-tool-" + COUNT.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private ToolThreads() {
    }
}
