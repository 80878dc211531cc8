package dev.agentd.server.compaction;

/** A compaction that could not be done; the message says why (shown to clients). */
public final class CompactionException extends Exception {
    private final boolean nothingToDo;

    public CompactionException(String message, boolean nothingToDo) {
        super(message);
        this.nothingToDo = nothingToDo;
    }

    public static CompactionException nothingToCompact() {
        return new CompactionException("Nothing to compact (session too small)", true);
    }

    /** True when the context was simply too small: not a failure. */
    public boolean nothingToDo() {
        return nothingToDo;
    }
}
