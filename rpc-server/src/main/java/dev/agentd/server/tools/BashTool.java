package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** {@code bash {command, timeout?}}: runs a command via {@link BashExecutor}, streaming its output. */
public final class BashTool extends BaseTool {
    private static final ToolParams PARAMS = ToolParams.builder()
            .required("command", Type.STRING, "The bash command to run")
            .optional("timeout", Type.NUMBER, "Timeout in seconds (optional; no timeout by default)")
            .build();

    private final Path cwd;
    private final BashExecutor executor;

    public BashTool(Path cwd, BashExecutor executor) {
        super("bash", "Run a bash command in the working directory and return its combined stdout and stderr. "
                + "Output is truncated to the last " + Truncation.MAX_LINES + " lines or "
                + Truncation.MAX_BYTES / 1024 + "KB, whichever comes first; the full output is then saved to a "
                + "temp file whose path is given. Optionally set a timeout in seconds.", PARAMS);
        this.cwd = cwd;
        this.executor = executor;
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws InterruptedException {
        String command = args.string("command");
        Double timeoutSeconds = args.number("timeout");
        if (timeoutSeconds != null && timeoutSeconds <= 0) {
            throw new ToolException("Invalid arguments for bash: 'timeout' must be a positive number of seconds");
        }
        // A huge (or infinite) timeout is clamped, never an overflow: beyond the cap it means no timeout.
        Duration timeout = timeoutSeconds == null || timeoutSeconds * 1000 >= BashExecutor.MAX_TIMEOUT.toMillis()
                ? null : Duration.ofMillis(Math.round(timeoutSeconds * 1000));
        BashExecution run;
        long started = System.nanoTime(); // the wall time pi 1.x reports, on the monotonic clock
        try {
            run = executor.run(command, cwd, timeout, cancel,
                    text -> onUpdate.accept(new ToolOutput(List.of(new ContentBlock.Text(text)), null)));
        } catch (IOException e) {
            throw new ToolException("Could not run command: " + e.getMessage());
        }
        double wallSeconds = (System.nanoTime() - started) / 1e9;
        StringBuilder text = new StringBuilder(run.output());
        ObjectNode details = null;
        if (run.truncated()) {
            text.append("\n\n").append(truncationNote(run));
            details = Json.mapper().createObjectNode();
            details.set("truncation", run.truncation().toJson());
            if (run.fullOutputPath() != null) {
                details.put("fullOutputPath", run.fullOutputPath().toString());
            }
        }
        String failure = null;
        if (run.cancelled()) {
            failure = "Command aborted";
        } else if (run.timedOut()) {
            failure = "Command timed out after " + seconds(timeoutSeconds) + " seconds";
        } else if (run.exitCode() != null && run.exitCode() != 0) {
            failure = "Command exited with code " + run.exitCode();
        }
        if (failure != null) {
            text.append(text.length() == 0 ? "" : "\n\n").append(failure);
        } else if (text.length() == 0) {
            text.append("(no output)");
        }
        return new ToolResult(List.of(new ContentBlock.Text(text.toString())), details, failure != null,
                structured(run, wallSeconds));
    }

    /**
     * pi 1.x's structured bash result, {@code {output, truncated, full_output_path?, exit_code,
     * wall_time_seconds}}, also for a non-zero exit. {@code output} is the same tail the model sees
     * (pi keeps up to 1 MiB there); the whole output is in {@code full_output_path}.
     */
    private static ObjectNode structured(BashExecution run, double wallSeconds) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("output", run.output());
        node.put("truncated", run.truncated());
        if (run.fullOutputPath() != null) {
            node.put("full_output_path", run.fullOutputPath().toString());
        }
        if (run.exitCode() == null) {
            node.putNull("exit_code");
        } else {
            node.put("exit_code", run.exitCode());
        }
        node.put("wall_time_seconds", Math.round(wallSeconds * 1000) / 1000.0);
        return node;
    }

    private static String truncationNote(BashExecution run) {
        Truncation.Result t = run.truncation();
        String where = run.fullOutputPath() == null ? "" : " Full output: " + run.fullOutputPath();
        long endLine = t.totalLines();
        if (t.lastLinePartial()) {
            return "[Showing the last " + Truncation.formatSize(t.outputBytes()) + " of line " + endLine + "." + where
                    + "]";
        }
        long startLine = endLine - t.outputLines() + 1;
        String limit = t.truncatedBy() == Truncation.Limit.BYTES
                ? " (" + Truncation.formatSize(Truncation.MAX_BYTES) + " limit)" : "";
        return "[Showing lines " + startLine + "-" + endLine + " of " + endLine + limit + "." + where + "]";
    }

    /** 5 rather than 5.0, 1.5 as given. */
    private static String seconds(Double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
