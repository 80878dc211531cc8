package dev.agentd.server.tools;

import java.nio.file.Path;

/**
 * How a command ended: the RPC {@code bash} command's BashResult and the {@code bash} tool's
 * result are both built from this.
 *
 * @param output the merged stdout/stderr, sanitised; only its tail when {@code truncated}
 * @param exitCode null when the command was killed (cancelled or timed out)
 * @param fullOutputPath the temp file holding the complete output, when truncated
 * @param truncation what was kept of the output (totals over the whole output)
 */
public record BashExecution(String output, Integer exitCode, boolean cancelled, boolean timedOut, boolean truncated,
        Path fullOutputPath, Truncation.Result truncation) {}
