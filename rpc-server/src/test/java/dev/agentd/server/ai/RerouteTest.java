package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** FALLBACK §10: which replies count as rerouted, and the price of one. */
class RerouteTest {
    private static Model model(String id, double input, double output) {
        return new Model(id, id, "anthropic-messages", "p", "http://localhost", false, List.of("text"),
                new Model.Cost(input, output, 0, 0), 200_000, 8_192);
    }

    private static AgentMessage.Assistant reply(String requested, String responded) {
        return new AgentMessage.Assistant(List.of(), "anthropic-messages", "p", requested,
                new Usage(1000, 100, 0, 0, 1100, Usage.Cost.ZERO), StopReason.STOP, null, 0, null, null, null, null,
                responded);
    }

    @Test
    void anotherModelIsARerouteButASnapshotOfTheRequestedOneIsNot() {
        assertEquals(Optional.of(new Reroute("claude-fable-5", "claude-opus-4-8")),
                Reroute.of(reply("claude-fable-5", "claude-opus-4-8")));
        assertEquals(Optional.empty(), Reroute.of(reply("gpt-4o", null)));
        assertFalse(Reroute.of(reply("gpt-4o", "gpt-4o-2024-08-06")).isPresent());
        assertFalse(Reroute.of(reply("claude-sonnet-4-5-latest", "claude-sonnet-4-5-20250929")).isPresent());
        assertFalse(Reroute.of(reply("gemini-2.5-flash", "gemini-2.5-flash-001")).isPresent());
        assertFalse(Reroute.of(reply("gemini-2.5-flash", "models/gemini-2.5-flash")).isPresent());
        assertFalse(Reroute.of(reply("openai/gpt-4o", "openai/gpt-4o-2024-08-06")).isPresent());
        // a longer name that is not a version of it is another model
        assertTrue(Reroute.of(reply("gpt-4o", "gpt-4o-mini")).isPresent());
        assertTrue(Reroute.of(reply("gemini-2.5-flash", "gemini-2.5-flash-lite")).isPresent());
        assertTrue(Reroute.of(reply("openai/gpt-4o", "anthropic/claude-sonnet-4.5")).isPresent());
    }

    @Test
    void aRerouteIsPricedAtTheModelThatAnsweredWhenTheRegistryKnowsIt() {
        ModelRegistry registry = new ModelRegistry(List.of(model("big", 3, 15), model("small", 1, 5)));
        AgentMessage.Assistant priced = Reroute.pricedAtResponder(reply("big", "small"), registry);
        assertEquals(0.001 + 0.0005, priced.usage().cost().total(), 1e-12);
        assertEquals(1000, priced.usage().input());
        assertEquals("small", priced.responseModel());
        assertEquals("big", priced.model());
    }

    @Test
    void anUnknownRespondingModelKeepsTheRequestedModelsPrice() {
        ModelRegistry registry = new ModelRegistry(List.of(model("big", 3, 15)));
        AgentMessage.Assistant unknown = reply("big", "elsewhere");
        assertSame(unknown, Reroute.pricedAtResponder(unknown, registry));
        AgentMessage.Assistant plain = reply("big", null);
        assertSame(plain, Reroute.pricedAtResponder(plain, registry));
    }
}
