package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.json.Json;
import dev.agentd.server.config.SettingsStore;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The retry.provider.* settings. */
class ProviderTimeoutsTest {

    @Test
    void defaultsThenConfiguredValuesThenMalformedOnesFallBack() throws IOException {
        SettingsStore settings = SettingsStore.inMemory();
        assertEquals(new ProviderTimeouts(10_000, 120_000, 120_000), ProviderTimeouts.from(settings.current()));
        settings.set("retry.provider.connectTimeoutMs", Json.mapper().getNodeFactory().numberNode(2_000));
        settings.set("retry.provider.streamStartTimeoutMs", Json.mapper().getNodeFactory().numberNode(30_000));
        settings.set("retry.provider.streamIdleTimeoutMs", Json.mapper().getNodeFactory().numberNode(45_000));
        assertEquals(new ProviderTimeouts(2_000, 30_000, 45_000), ProviderTimeouts.from(settings.current()));
        settings.set("retry.provider.streamIdleTimeoutMs", Json.mapper().getNodeFactory().numberNode(0));
        settings.set("retry.provider.connectTimeoutMs", Json.mapper().getNodeFactory().textNode("fast"));
        assertEquals(new ProviderTimeouts(10_000, 30_000, 120_000), ProviderTimeouts.from(settings.current()));
    }
}
