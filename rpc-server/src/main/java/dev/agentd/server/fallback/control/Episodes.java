package dev.agentd.server.fallback.control;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.fallback.Pins;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fallback episode in progress (FALLBACK §5.1), shared by the end-of-run switch and the turn
 * boundary. An atomic reference rather than a lock: a user's model change ends the episode from
 * the command reader, while a switch of the run thread publishes its episode before it switches,
 * so neither waits for the other.
 */
final class Episodes {
    /**
     * @param currentEntry the chain entry switched to (it names the thinking level)
     * @param lastApplied the level the switch applied; null once the user changed the level
     */
    record Episode(String chainKey, String currentEntry, Model original, ThinkingLevel originalThinking,
            ThinkingLevel lastApplied, Pins pins) {

        Episode withPins(Pins next) {
            return new Episode(chainKey, currentEntry, original, originalThinking, lastApplied, next);
        }

        Episode withoutAppliedLevel() {
            return new Episode(chainKey, currentEntry, original, originalThinking, null, pins);
        }
    }

    private final AtomicReference<Episode> active = new AtomicReference<>();

    /** The episode in progress, or null. */
    Episode active() {
        return active.get();
    }

    String chainKey() {
        Episode episode = active.get();
        return episode == null ? null : episode.chainKey();
    }

    void start(Episode episode) {
        active.set(episode);
    }

    /** Ends {@code episode} unless something replaced it meanwhile; true when it ended here. */
    boolean end(Episode episode) {
        return active.compareAndSet(episode, null);
    }

    /** Ends whatever episode is in progress; returns it (null: none). */
    Episode clear() {
        return active.getAndSet(null);
    }

    /** A compaction rewrote the context; returns the episode before it (null: none). */
    Episode compacted() {
        return active.getAndUpdate(episode -> episode == null ? null : episode.withPins(episode.pins().afterCompaction()));
    }

    /** The user changed the thinking level: a revert keeps their level. */
    void userChangedThinking() {
        active.updateAndGet(episode -> episode == null ? null : episode.withoutAppliedLevel());
    }
}
