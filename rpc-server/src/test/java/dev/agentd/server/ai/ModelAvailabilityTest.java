package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.ai.faux.FauxProvider;
import dev.agentd.server.ai.faux.FauxScript;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.ScriptedProvider;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One answer to "can this model be called now, and why not?" (review W5). */
class ModelAvailabilityTest {
    private static final Model ORPHAN = new Model("orphan-1", "Orphan", "no-such-api", "orphan", "http://unused",
            false, List.of("text"), Model.Cost.FREE, 1000, 100);

    private static ModelAvailability availability(Set<String> withCredential) {
        ModelRegistry models = new ModelRegistry(List.of(FauxModels.FAUX_1, ScriptedProvider.MODEL, ORPHAN));
        ProviderRegistry providers = new ProviderRegistry(List.of(
                new FauxProvider(new FauxScript(), new FakeScheduler(), 0), new ScriptedProvider()));
        return new ModelAvailability(models, providers, withCredential::contains,
                provider -> "No API key found for " + provider);
    }

    @Test
    void aKnownModelWhoseProviderHasACredentialOrNeedsNoneCanBeCalled() {
        ModelAvailability none = availability(Set.of());
        assertEquals(Optional.empty(), none.check(FauxModels.FAUX_1), "faux needs no credential");
        assertTrue(availability(Set.of("scripted")).usable(ScriptedProvider.MODEL));
    }

    @Test
    void eachReasonIsNamed() {
        ModelAvailability none = availability(Set.of());
        assertEquals(ModelAvailability.Reason.NO_CREDENTIAL, none.check(ScriptedProvider.MODEL).orElseThrow().reason());
        assertEquals("No API key found for scripted", none.check(ScriptedProvider.MODEL).orElseThrow().message());
        assertEquals(new ModelAvailability.Unavailable(ModelAvailability.Reason.NO_PROVIDER,
                "No API provider registered for api: no-such-api"), none.check(ORPHAN).orElseThrow());
        assertEquals(ModelAvailability.Reason.UNKNOWN_MODEL, none.check(FauxModels.FAUX_2).orElseThrow().reason(),
                "not in this registry");
    }

    @Test
    void providersAndCredentialNeedsAreAnsweredTheSameWay() {
        ModelAvailability none = availability(Set.of());
        assertTrue(none.providerUsable("faux"));
        assertFalse(none.providerUsable("scripted"));
        assertFalse(none.providerUsable("nobody"));
        assertFalse(none.needsCredential(FauxModels.FAUX_1));
        assertTrue(none.needsCredential(ScriptedProvider.MODEL));
        assertTrue(none.needsCredential(ORPHAN), "an api nobody speaks counts as needing one");
    }

    /** A cloud provider whose credential is ambient (Bedrock, Vertex): no key, but it must be configured. */
    private static final class Ambient implements Provider {
        static final Model MODEL = new Model("us.anthropic.claude-x", "X", "ambient-api", "cloud", "http://unused",
                true, List.of("text"), Model.Cost.FREE, 1000, 100);

        @Override
        public String api() {
            return "ambient-api";
        }

        @Override
        public boolean requiresCredential() {
            return false;
        }

        @Override
        public boolean ambientCredential() {
            return true;
        }

        @Override
        public dev.agentd.protocol.message.AgentMessage.Assistant stream(StreamRequest request,
                StreamListener listener, dev.agentd.server.runtime.CancellationToken cancel) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void anAmbientProviderNeedsNoKeyButIsOfferedOnlyWhenConfigured() {
        ModelRegistry models = new ModelRegistry(List.of(Ambient.MODEL));
        ProviderRegistry providers = new ProviderRegistry(List.of(new Ambient()));
        ModelAvailability unconfigured = new ModelAvailability(models, providers, p -> false, p -> "missing " + p);
        assertEquals(new ModelAvailability.Unavailable(ModelAvailability.Reason.NO_CREDENTIAL, "missing cloud"),
                unconfigured.check(Ambient.MODEL).orElseThrow(), "a built-in cloud catalog is not offered to everyone");
        assertFalse(unconfigured.needsCredential(Ambient.MODEL), "never picked as the default for want of a key");
        assertFalse(unconfigured.providerUsable("cloud"), "no family expands onto a cloud the user never set up");
        ModelAvailability configured = new ModelAvailability(models, providers, "cloud"::equals, p -> "");
        assertTrue(configured.usable(Ambient.MODEL), "evident credentials or a models.json entry configure it");
        assertTrue(configured.providerUsable("cloud"));
    }
}
