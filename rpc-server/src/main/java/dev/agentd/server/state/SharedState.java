package dev.agentd.server.state;

/**
 * The process's shared recovery state: one per resolved agent directory, handed to every session.
 * Implementations never throw on a store failure: they fall back to process-local state and say
 * so in {@link #status()}.
 */
public interface SharedState extends AutoCloseable {
    Circuits circuits();

    CredentialBlocks credentialBlocks();

    /** Which store is in use and whether it is shared right now (for {@code get_fallback_state}). */
    StoreStatus status();

    /** Releases connections, files and background threads; never throws. */
    @Override
    void close();

    /** A store that keeps both tables itself and holds nothing to release (memory, file). */
    interface SelfContained extends SharedState, Circuits, CredentialBlocks {
        @Override
        default Circuits circuits() {
            return this;
        }

        @Override
        default CredentialBlocks credentialBlocks() {
            return this;
        }

        @Override
        default void close() {}
    }
}
