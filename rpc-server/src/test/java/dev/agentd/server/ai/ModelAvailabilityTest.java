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
}
