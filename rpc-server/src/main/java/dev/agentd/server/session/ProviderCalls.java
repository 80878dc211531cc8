package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelAvailability;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.Reroute;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.auth.SecretResolver;
import dev.agentd.server.quota.QuotaBook;
import dev.agentd.server.runtime.CancellationToken;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns "stream a reply for this context" into one provider request: picks the provider of the
 * current model, resolves its credential for this session (so rotation applies per attempt),
 * and converts anything unexpected into an error reply — nothing throws out of a run.
 */
final class ProviderCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ProviderCalls.class);

    private final SessionContext context;
    private final ModelControl models;
    private final Supplier<String> sessionId;
    private final QuotaBook quota;

    /** @param quota records every reply's rate-limit figures under the called model's selector */
    ProviderCalls(SessionContext context, ModelControl models, Supplier<String> sessionId, QuotaBook quota) {
        this.context = context;
        this.models = models;
        this.sessionId = sessionId;
        this.quota = quota;
    }

    /** Why the current model cannot be called at all (checked before a prompt's run starts). */
    Optional<String> credentialProblem() {
        return context.availability().check(models.current()).map(ModelAvailability.Unavailable::message);
    }

    AgentMessage.Assistant stream(List<AgentMessage> messages, StreamListener listener, CancellationToken cancel) {
        return call(context.systemPrompt().get(), messages, context.tools().definitions(), listener, cancel);
    }

    /** One request without tools and with its own system prompt (compaction summaries). */
    AgentMessage.Assistant complete(String systemPrompt, List<AgentMessage> messages, CancellationToken cancel) {
        return call(systemPrompt, messages, List.of(), StreamListener.NONE, cancel);
    }

    /**
     * A probe-back request to {@code model}, which need not be the current one (FALLBACK §5.5):
     * one token, no tools, thinking off. Empty when it answered, else its error.
     */
    Optional<String> probe(Model model, CancellationToken cancel) {
        AgentMessage.User ok = new AgentMessage.User(List.of(new ContentBlock.Text("OK")), context.scheduler().now());
        AgentMessage.Assistant reply = call("Reply with OK.", List.of(ok), List.of(), StreamListener.NONE, cancel,
                new ModelChoice(model, ThinkingLevel.OFF, ThinkingLevel.OFF), 1);
        return reply.stopReason().failed() ? Optional.of(reply.errorMessage() == null ? "Probe failed"
                : reply.errorMessage()) : Optional.empty();
    }

    private AgentMessage.Assistant call(String systemPrompt, List<AgentMessage> messages,
            List<ToolDefinition> tools, StreamListener listener, CancellationToken cancel) {
        // one snapshot: the level always belongs to the model
        return call(systemPrompt, messages, tools, listener, cancel, models.choice(), 0);
    }

    /** @param maxOutputTokens a limit on the reply, 0 for the provider's default */
    private AgentMessage.Assistant call(String systemPrompt, List<AgentMessage> messages,
            List<ToolDefinition> tools, StreamListener listener, CancellationToken cancel, ModelChoice choice,
            int maxOutputTokens) {
        Model model = choice.model();
        Optional<Provider> provider = context.providers().forModel(model);
        if (provider.isEmpty()) {
            // the preflight asked ModelAvailability; a probe or a summary may name another model
            return failure(model, context.availability().check(model).map(ModelAvailability.Unavailable::message)
                    .orElse("No API provider registered for api: " + model.api()));
        }
        String key = null;
        if (provider.get().requiresCredential()) {
            SecretResolver.Resolution resolved = context.auth().key(model.provider(), sessionId.get(), cancel);
            key = resolved.found().orElse(null);
            if (resolved instanceof SecretResolver.Resolution.Failed failed
                    && !context.auth().isKeyless(model.provider())) {
                return failure(model, failed.problem()); // names a failed key command's cause (N9)
            }
        } else if (provider.get().ambientCredential() && context.auth().hasCredential(model.provider())) {
            // an optional key (Vertex's API key) goes first; without one the provider uses its ambient credential
            key = context.auth().key(model.provider(), sessionId.get(), cancel).found().orElse(null);
        }
        Optional<String> headerProblem = context.auth().headerProblem(model.provider(), cancel);
        if (headerProblem.isPresent()) {
            return failure(model, headerProblem.get());
        }
        StreamRequest request = new StreamRequest(model, systemPrompt, messages, tools, choice.effective(), key,
                context.models().headers(model), sessionId.get(), maxOutputTokens);
        try {
            // A reply another model answered costs what that model costs (FALLBACK §10).
            return Reroute.pricedAtResponder(provider.get().stream(request, quota.tap(listener, model.selector()),
                    cancel), context.models());
        } catch (RuntimeException | Error e) {
            // Provider contract violation (or a StackOverflowError parsing a hostile reply); the message could
            // quote a request, so only the type is shown. The failed reply then ends the run as any error does.
            LOG.error("provider {} threw {}", model.api(), e.getClass().getName());
            return failure(model, "Provider failed: " + e.getClass().getSimpleName());
        }
    }

    private AgentMessage.Assistant failure(Model model, String message) {
        return new AgentMessage.Assistant(List.of(), model.api(), model.provider(), model.id(), Usage.ZERO,
                StopReason.ERROR, message, context.scheduler().now());
    }

}
