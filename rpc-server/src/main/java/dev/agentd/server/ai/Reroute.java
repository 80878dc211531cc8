package dev.agentd.server.ai;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.catalog.Pricing;
import java.util.Optional;

/**
 * A reply that another model answered (FALLBACK §10): the reply's {@code responseModel} names a
 * model that is not the requested one. A dated or versioned snapshot of the requested id
 * ({@code gpt-4o} answered by {@code gpt-4o-2024-08-06}, {@code claude-x-latest} by
 * {@code claude-x-20250929}, {@code gemini-2.5-flash} by {@code gemini-2.5-flash-001}) is the same
 * model under its exact name, not a reroute: {@code responseModel} still records it, but it is
 * neither announced nor treated as a provider's fallback.
 */
public record Reroute(String requested, String responded) {
    private static final String LATEST = "-latest";

    /** The reroute {@code reply} reports, if any. */
    public static Optional<Reroute> of(AgentMessage.Assistant reply) {
        String responded = reply.responseModel();
        if (responded == null || reply.model() == null || sameModel(reply.model(), responded)) {
            return Optional.empty();
        }
        return Optional.of(new Reroute(reply.model(), responded));
    }

    /**
     * {@code reply} priced at the model that answered, when {@code registry} knows it under the
     * reply's provider; else unchanged — priced at the requested model, the only price known.
     */
    public static AgentMessage.Assistant pricedAtResponder(AgentMessage.Assistant reply, ModelRegistry registry) {
        if (reply.responseModel() == null) {
            return reply;
        }
        Optional<Model> responder = registry.find(reply.provider(), reply.responseModel());
        if (responder.isEmpty()) {
            return reply;
        }
        Usage tokens = reply.usage();
        Usage priced = Pricing.usage(responder.get(), tokens.input(), tokens.output(), tokens.cacheRead(),
                tokens.cacheWrite(), tokens.totalTokens());
        return new AgentMessage.Assistant(reply.content(), reply.api(), reply.provider(), reply.model(), priced,
                reply.stopReason(), reply.errorMessage(), reply.timestamp(), reply.errorStatus(), reply.errorType(),
                reply.retryAfterMs(), reply.shouldRetry(), reply.responseModel());
    }

    static boolean sameModel(String requested, String responded) {
        if (responded.equals(requested)) {
            return true;
        }
        String base = requested.endsWith(LATEST) ? requested.substring(0, requested.length() - LATEST.length())
                : requested;
        // Gemini may answer with the resource name ("models/gemini-2.5-flash").
        String answered = responded.startsWith("models/") ? responded.substring("models/".length()) : responded;
        if (answered.equals(base)) {
            return true;
        }
        if (answered.length() < base.length() + 2 || !answered.startsWith(base)) {
            return false;
        }
        char separator = answered.charAt(base.length());
        return (separator == '-' || separator == '@' || separator == ':')
                && Character.isDigit(answered.charAt(base.length() + 1));
    }
}
