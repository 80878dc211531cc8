package dev.agentd.server.tools;

import dev.agentd.server.runtime.CancellationToken;
import java.util.List;

/**
 * Tools that come and go while a session runs (an MCP server's, once it connects or announces a
 * changed list), offered beside the built-in ones.
 */
public interface ToolSource {
    ToolSource NONE = List::of;

    /** The tools offered now. Never blocks. */
    List<Tool> tools();

    /**
     * Waits, within the source's own bound, for tools still on their way (servers still starting);
     * returns at once when cancelled. The agent loop calls it before each run.
     */
    default void awaitReady(CancellationToken cancel) {}
}
