package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one answer to "can this model be called now, and if not, why?" — asked by the model picker at
 * start, {@code set_model}/{@code cycle_model} and the model lists, the provider call's preflight,
 * the fallback scan, the revert rule and probe-back. A model can be called when agentd knows it, a
 * provider speaks its api, and that provider has a credential or needs none (an ambient one, Bedrock's
 * or Vertex's, must be configured).
 */
public final class ModelAvailability {
    /** Why a model cannot be called; the message is what a prompt's failure says. */
    public record Unavailable(Reason reason, String message) {}

    public enum Reason { UNKNOWN_MODEL, NO_PROVIDER, NO_CREDENTIAL }

    private final ModelRegistry models;
    private final ProviderRegistry providers;
    private final Predicate<String> hasCredential;
    private final Function<String, String> missingKeyMessage;

    /**
     * @param hasCredential whether a provider has a credential configured now (auth.json, env, --api-key)
     * @param missingKeyMessage what to say when a provider that needs one has none
     */
    public ModelAvailability(ModelRegistry models, ProviderRegistry providers, Predicate<String> hasCredential,
            Function<String, String> missingKeyMessage) {
        this.models = models;
        this.providers = providers;
        this.hasCredential = hasCredential;
        this.missingKeyMessage = missingKeyMessage;
    }

    /** Empty when {@code model} can be called now. */
    public Optional<Unavailable> check(Model model) {
        if (models.find(model.provider(), model.id()).isEmpty()) {
            return Optional.of(new Unavailable(Reason.UNKNOWN_MODEL, "Model not found: " + model.selector()));
        }
        Optional<Provider> provider = providers.forModel(model);
        if (provider.isEmpty()) {
            return Optional.of(new Unavailable(Reason.NO_PROVIDER,
                    "No API provider registered for api: " + model.api()));
        }
        // An ambient provider (Bedrock, Vertex) needs no key but must be configured (evident
        // credentials or a models.json entry, auth.AmbientCredentials): the built-in catalog's
        // cloud models are not offered to users who set up neither.
        boolean needs = provider.get().requiresCredential() || provider.get().ambientCredential();
        if (needs && !hasCredential.test(model.provider())) {
            return Optional.of(new Unavailable(Reason.NO_CREDENTIAL, missingKeyMessage.apply(model.provider())));
        }
        return Optional.empty();
    }

    public boolean usable(Model model) {
        return check(model).isEmpty();
    }

    /**
     * Whether {@code model} is offered because the user set its provider up: a key, or an ambient
     * credential (Bedrock, Vertex) — as opposed to a model that needs nothing (the embedded faux).
     */
    public boolean configuredByUser(Model model) {
        return providers.forModel(model).map(p -> p.requiresCredential() || p.ambientCredential()).orElse(true);
    }

    /** Whether calling {@code model} takes a credential (an unknown api counts as needing one). */
    public boolean needsCredential(Model model) {
        return providers.forModel(model).map(Provider::requiresCredential).orElse(true);
    }

    /** Whether the provider named {@code provider} can serve its models (asked of its default model). */
    public boolean providerUsable(String provider) {
        return models.ofProvider(provider).stream().findFirst().map(this::usable).orElse(false);
    }
}
