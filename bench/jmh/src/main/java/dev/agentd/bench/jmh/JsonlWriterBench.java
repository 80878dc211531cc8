package dev.agentd.bench.jmh;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code message_update} through {@link JsonlWriter} (serialize into the reused buffer, one
 * write, flush) into a sink that discards: the daemon's per-token cost without the pipe. Delta
 * mode writes only the change; full mode repeats the partial message, here after
 * {@code partialDeltas} five-character deltas (2500 ≈ the middle of a 5000-delta reply).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JsonlWriterBench {
    private JsonlWriter writer;
    private AgentEvent.MessageUpdate delta;
    private AgentEvent.AgentStart small;

    /** A full-mode update whose partial message holds {@code partialDeltas} deltas. */
    @State(Scope.Thread)
    public static class Partial {
        @Param({"100", "2500"})
        int partialDeltas;

        AgentEvent.MessageUpdate update;

        @Setup
        public void setUp() {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < partialDeltas; i++) {
                text.append(String.format("%04d ", i % 10_000));
            }
            AgentMessage.Assistant partial = new AgentMessage.Assistant(List.of(new ContentBlock.Text(
                    text.toString(), null)), "openai-completions", "bench", "bench-model", Usage.ZERO,
                    StopReason.STOP, null, 1_764_000_000_000L);
            update = new AgentEvent.MessageUpdate(partial, new AssistantMessageEvent("text_delta", 0, "0042 ", null,
                    null, partial));
        }
    }

    @Setup
    public void setUp() {
        writer = new JsonlWriter(OutputStream.nullOutputStream(), Json.mapper());
        delta = new AgentEvent.MessageUpdate(null, new AssistantMessageEvent("text_delta", 0, "0042 ", null, null,
                null));
        small = new AgentEvent.AgentStart();
    }

    @Benchmark
    public void messageUpdateDeltaMode() throws IOException {
        writer.write(delta);
    }

    @Benchmark
    public void messageUpdateFullMode(Partial full) throws IOException {
        writer.write(full.update);
    }

    @Benchmark
    public void agentStart() throws IOException {
        writer.write(small);
    }
}
