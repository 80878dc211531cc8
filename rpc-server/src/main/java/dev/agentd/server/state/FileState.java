package dev.agentd.server.state;

import dev.agentd.server.config.LockedJsonFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shared state for every agentd on the machine using one agent directory: {@code circuits.json}
 * there (layout in {@link StateJson}), each change one read-modify-write under
 * {@link LockedJsonFile}'s lock (threads and processes), written whole and renamed into place with
 * mode 0600, so readers never see half a file. Reads ({@code list}, {@code blockedForMs}) read the
 * renamed file without the lock.
 *
 * <p>Never bricks the daemon: a file that cannot be parsed is warned about once and replaced by a
 * fresh one (the state is recent failures: losing it costs at most a few requests); a file that
 * cannot be written at all makes the store fall back, for the rest of the process, to
 * {@link MemoryState} and say so in {@link #status()}. A file over {@link #MAX_FILE_BYTES} (which
 * agentd never writes: {@link StateBook#MAX_RECORDS}) is treated like an unparsable one, so that no
 * writer can make every admission parse, and every change rewrite, a huge file on the run thread.
 */
public final class FileState implements SharedState.SelfContained {
    private static final Logger LOG = LoggerFactory.getLogger(FileState.class);
    public static final String FILE_NAME = "circuits.json";
    /** 1 MiB: about twice the largest file agentd writes (512 circuits and 512 blocks, names of 256 chars). */
    public static final long MAX_FILE_BYTES = 1L << 20;

    private final LockedJsonFile file;
    private final LongSupplier clock;
    private final long maxBytes;
    private final AtomicBoolean warnedUnreadable = new AtomicBoolean();
    private final AtomicReference<MemoryState> fallback = new AtomicReference<>();

    /** @param clock epoch milliseconds (shared with other processes: never a monotonic clock) */
    public FileState(Path file, LongSupplier clock) {
        this(file, clock, MAX_FILE_BYTES);
    }

    /** @param maxBytes a larger file is replaced, not parsed (tests use a small one) */
    FileState(Path file, LongSupplier clock, long maxBytes) {
        this.file = new LockedJsonFile(file, maxBytes);
        this.clock = clock;
        this.maxBytes = maxBytes;
    }

    /** {@code <agentDir>/circuits.json} on the machine's wall clock (shared with the other processes there). */
    public static FileState onSystemClock(Path agentDir) {
        return new FileState(agentDir.resolve(FILE_NAME), System::currentTimeMillis);
    }

    public Path path() {
        return file.path();
    }

    @Override
    public StoreStatus status() {
        MemoryState memory = fallback.get();
        return memory == null ? new StoreStatus("file", true, Optional.empty()) : memory.status();
    }


    @Override
    public Admission admit(String selector, String owner, CircuitTimings timings) {
        return change(book -> book.admit(selector, owner, clock.getAsLong(), timings),
                memory -> memory.admit(selector, owner, timings));
    }

    @Override
    public long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
        return change(book -> book.open(selector, retryAfterMs, clock.getAsLong(), timings),
                memory -> memory.open(selector, retryAfterMs, timings));
    }

    @Override
    public void close(String selector) {
        change(book -> book.close(selector), memory -> {
            memory.close(selector);
            return true;
        });
    }

    @Override
    public boolean release(String selector, ProbeToken token) {
        return change(book -> book.release(selector, token), memory -> memory.release(selector, token));
    }

    @Override
    public List<CircuitView> list(CircuitTimings timings) {
        MemoryState memory = fallback.get();
        return memory != null ? memory.list(timings) : read().list(clock.getAsLong(), timings);
    }

    @Override
    public void block(CredentialId id, long durationMs) {
        change(book -> {
            book.block(CredentialIds.key(id), durationMs, clock.getAsLong());
            return true;
        }, memory -> {
            memory.block(id, durationMs);
            return true;
        });
    }

    @Override
    public long blockedForMs(CredentialId id) {
        MemoryState memory = fallback.get();
        return memory != null ? memory.blockedForMs(id) : read().blockedForMs(CredentialIds.key(id), clock.getAsLong());
    }

    /** One locked read-modify-write; on a file that cannot be written, the memory fallback. */
    private <T> T change(Function<StateBook, T> operation, Function<MemoryState, T> onMemory) {
        MemoryState memory = fallback.get();
        if (memory == null) {
            try {
                Object[] result = new Object[1];
                file.updateReplacingUnreadable(root -> {
                    StateBook book = StateJson.read(root);
                    result[0] = operation.apply(book);
                    StateJson.write(book, root);
                }, this::warnUnreadable);
                @SuppressWarnings("unchecked")
                T answer = (T) result[0];
                return answer;
            } catch (IOException | RuntimeException e) {
                memory = fallBack(e);
            }
        }
        return onMemory.apply(memory);
    }

    private StateBook read() {
        try {
            return StateJson.read(file.read());
        } catch (IOException | RuntimeException e) {
            warnUnreadable(e);
            return new StateBook();
        }
    }

    private void warnUnreadable(Exception e) {
        if (warnedUnreadable.compareAndSet(false, true)) {
            // The parser's message may quote the file; the class name is enough to say what went wrong.
            String why = e instanceof LockedJsonFile.TooLargeException ? "larger than " + maxBytes + " bytes"
                    : e.getCause() != null ? e.getCause().getClass().getSimpleName() : e.getClass().getSimpleName();
            LOG.warn("shared circuit state {} cannot be read ({}); starting it afresh", file.path(), why);
        }
    }

    private MemoryState fallBack(Exception e) {
        String warning = "cannot write " + file.path() + " (" + reason(e) + "); circuits and credential blocks are"
                + " kept in this process only";
        MemoryState memory = new MemoryState(clock, new StoreStatus("file", false, Optional.of(warning)));
        if (fallback.compareAndSet(null, memory)) {
            LOG.warn("{}", warning);
        }
        return fallback.get();
    }

    private static String reason(Exception e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
