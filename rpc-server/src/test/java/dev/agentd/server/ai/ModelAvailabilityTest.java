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

    @Test
    void anAmbientProviderNeedsNoKeyButMustBeConfigured() {
        Model bedrock = new Model("us.anthropic.claude-x", "X", "bedrock-converse-stream", "amazon-bedrock",
                "https://bedrock-runtime.us-east-1.amazonaws.com", true, null, null, 1000, 100);
        Provider ambient = new Provider() {
            @Override
            public String api() {
                return "bedrock-converse-stream";
            }

            @Override
            public boolean requiresCredential() {
                return false;
            }

            @Override
            public dev.agentd.protocol.message.AgentMessage.Assistant stream(StreamRequest request,
                    StreamListener listener, dev.agentd.server.runtime.CancellationToken cancel) {
                throw new UnsupportedOperationException();
            }
        };
        ModelRegistry models = new ModelRegistry(List.of(bedrock));
        ProviderRegistry providers = new ProviderRegistry(List.of(ambient));
        ModelAvailability unconfigured = new ModelAvailability(models, providers, p -> false, p -> "missing " + p);
        assertEquals(new ModelAvailability.Unavailable(ModelAvailability.Reason.NO_CREDENTIAL, "missing amazon-bedrock"),
                unconfigured.check(bedrock).orElseThrow(), "the built-in Bedrock catalog is not offered to everyone");
        assertFalse(unconfigured.needsCredential(bedrock), "never picked as the default for want of a key");
        assertTrue(new ModelAvailability(models, providers, "amazon-bedrock"::equals, p -> "").usable(bedrock),
                "AWS variables or a models.json entry configure it");
        assertTrue(dev.agentd.server.runtime.ProviderVariables.ambientConfigured("amazon-bedrock",
                java.util.Map.of("AWS_PROFILE", "work")::get));
        assertFalse(dev.agentd.server.runtime.ProviderVariables.ambientConfigured("amazon-bedrock",
                java.util.Map.of("AWS_REGION", "us-east-1", "AWS_PROFILE", " ")::get));
    }
}
