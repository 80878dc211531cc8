package dev.agentd.server.ai.faux;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.ContentBlocks;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded provider (SPEC §6.2–6.3): replays scripted steps, or a deterministic default reply,
 * streamed in small deltas at a configurable pace. Usage is estimated at four characters a token.
 * Pacing and step delays run on the injected {@link Scheduler} and end at once on abort.
 */
public final class FauxProvider implements Provider {
    private static final int CHUNK_CHARS = 12;

    private final FauxScript script;
    private final Scheduler scheduler;
    private final long defaultChunkDelayMs;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicLong toolCallIds = new AtomicLong();

    public FauxProvider(FauxScript script, Scheduler scheduler, long defaultChunkDelayMs) {
        this.script = script;
        this.scheduler = scheduler;
        this.defaultChunkDelayMs = defaultChunkDelayMs;
    }

    @Override
    public String api() {
        return FauxModels.API;
    }

    @Override
    public boolean requiresCredential() {
        return false;
    }

    /** How many replies were requested so far (one per attempt). */
    public int requestCount() {
        return requests.get();
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        requests.incrementAndGet();
        FauxStep step = script.next(request.model().id()).orElseGet(() -> defaultStep(request));
        AssistantMessageBuilder reply = new AssistantMessageBuilder(request.model(), scheduler.now(), listener);
        long chunkDelay = step.chunkDelayMs() != null ? step.chunkDelayMs() : defaultChunkDelayMs;
        if (step.delayMs() != null && !cancel.sleep(scheduler, step.delayMs())) {
            return reply.aborted();
        }
        if (cancel.isCancelled()) {
            return reply.aborted();
        }
        if (step.error() != null && step.text() == null) {
            // Script text is client input: ProviderError cuts it like a provider's (TextBounds).
            return reply.fail(new ProviderError(step.error(), step.status(), step.errorType(), step.retryAfterMs(), null));
        }
        reply.start();
        List<FauxStep.ToolCallSpec> calls = new ArrayList<>();
        if (step.toolCall() != null) {
            calls.add(step.toolCall());
        }
        if (step.toolCalls() != null) {
            calls.addAll(step.toolCalls());
        }
        if (step.thinking() != null) {
            int index = reply.startThinking();
            if (!streamChunks(step.thinking(), delta -> reply.thinkingDelta(index, delta), chunkDelay, cancel)) {
                return reply.aborted();
            }
            reply.thinkingSignature(index, "faux-signature");
            reply.endThinking(index);
        }
        if (step.text() != null) {
            int index = reply.startText();
            if (!streamChunks(step.text(), delta -> reply.textDelta(index, delta), chunkDelay, cancel)) {
                return reply.aborted();
            }
            if (step.error() != null && calls.isEmpty()) { // a mid-stream failure: the text so far, then the error
                return midStreamFailure(reply, step);
            }
            reply.endText(index);
        }
        for (FauxStep.ToolCallSpec call : calls) {
            String id = call.id() != null ? call.id() : "faux_call_" + toolCallIds.incrementAndGet();
            int index = reply.startToolCall(id, call.name());
            JsonNode arguments = call.arguments() == null ? Json.mapper().createObjectNode() : call.arguments();
            if (!streamChunks(arguments.toString(), delta -> reply.toolCallDelta(index, delta), chunkDelay, cancel)) {
                return reply.aborted();
            }
            reply.endToolCall(index);
        }
        if (step.error() != null) { // calls with an error: they completed, then the stream was cut
            return midStreamFailure(reply, step);
        }
        reply.usage(usage(request, step, reply));
        return reply.finish(calls.isEmpty() ? StopReason.STOP : StopReason.TOOL_USE);
    }

    private static AgentMessage.Assistant midStreamFailure(AssistantMessageBuilder reply, FauxStep step) {
        return reply.fail(new ProviderError(step.error(), step.status(), step.errorType(), step.retryAfterMs(), null));
    }

    private boolean streamChunks(String text, java.util.function.Consumer<String> sink, long delayMs,
            CancellationToken cancel) {
        int offset = 0;
        while (offset < text.length()) {
            if (offset > 0 && !cancel.sleep(scheduler, delayMs)) {
                return false;
            }
            if (cancel.isCancelled()) {
                return false;
            }
            int end = chunkEnd(text, offset);
            sink.accept(text.substring(offset, end));
            offset = end;
        }
        return !cancel.isCancelled();
    }

    /** Cuts after whitespace near {@link #CHUNK_CHARS}, never inside a surrogate pair. */
    private static int chunkEnd(String text, int offset) {
        int end = Math.min(text.length(), offset + CHUNK_CHARS);
        for (int i = end - 1; i > offset && end < text.length(); i--) {
            if (Character.isWhitespace(text.charAt(i))) {
                return i + 1;
            }
        }
        if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end++;
        }
        return end;
    }

    private static Usage usage(StreamRequest request, FauxStep step, AssistantMessageBuilder reply) {
        long contextChars = request.systemPrompt() == null ? 0 : request.systemPrompt().length();
        for (AgentMessage message : request.messages()) {
            contextChars += charsOf(message);
        }
        long input = step.inputTokens() != null ? step.inputTokens() : contextChars / 4;
        long outputChars = (step.text() == null ? 0 : step.text().length())
                + (step.thinking() == null ? 0 : step.thinking().length());
        long output = step.outputTokens() != null ? step.outputTokens() : Math.max(1, outputChars / 4);
        return new Usage(input, output, 0, 0, input + output, Usage.Cost.ZERO);
    }

    private static long charsOf(AgentMessage message) {
        if (message instanceof AgentMessage.User user) {
            return user.text().length();
        }
        if (message instanceof AgentMessage.Assistant assistant) {
            long chars = 0;
            for (ContentBlock block : assistant.content()) {
                if (block instanceof ContentBlock.Text text) {
                    chars += text.text().length();
                } else if (block instanceof ContentBlock.Thinking thinking) {
                    chars += thinking.thinking().length();
                } else if (block instanceof ContentBlock.ToolCall call) {
                    chars += call.arguments().toString().length();
                }
            }
            return chars;
        }
        if (message instanceof AgentMessage.ToolResult result) {
            return ContentBlocks.text(result.content()).length();
        }
        return 0;
    }

    private static FauxStep defaultStep(StreamRequest request) {
        String lastUser = "";
        for (AgentMessage message : request.messages()) {
            if (message instanceof AgentMessage.User user) {
                lastUser = user.text();
            }
        }
        String echo = lastUser.length() > 80 ? lastUser.substring(0, 80) + "…" : lastUser;
        return FauxStep.text("This is the faux model. You said: " + echo);
    }
}
