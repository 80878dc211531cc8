package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.config.SettingsStore;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The retry.provider.* settings. */
class ProviderSettingsTest {

    @Test
    void defaultsThenConfiguredValuesThenMalformedOnesFallBack() throws IOException {
        SettingsStore settings = SettingsStore.inMemory();
        assertEquals(new ProviderTimeouts(10_000, 120_000, 120_000, 300_000), ProviderSettings.timeouts(settings.current()));
        settings.set("retry.provider.connectTimeoutMs", Json.mapper().getNodeFactory().numberNode(2_000));
        settings.set("retry.provider.streamStartTimeoutMs", Json.mapper().getNodeFactory().numberNode(30_000));
        settings.set("retry.provider.streamIdleTimeoutMs", Json.mapper().getNodeFactory().numberNode(45_000));
        assertEquals(new ProviderTimeouts(2_000, 30_000, 45_000), ProviderSettings.timeouts(settings.current()));
        settings.set("retry.provider.streamFirstEventTimeoutMs", Json.mapper().getNodeFactory().numberNode(90_000));
        assertEquals(new ProviderTimeouts(2_000, 30_000, 45_000, 90_000), ProviderSettings.timeouts(settings.current()));
        settings.set("retry.provider.streamFirstEventTimeoutMs", Json.mapper().getNodeFactory().numberNode(-1));
        settings.set("retry.provider.streamIdleTimeoutMs", Json.mapper().getNodeFactory().numberNode(0));
        settings.set("retry.provider.connectTimeoutMs", Json.mapper().getNodeFactory().textNode("fast"));
        assertEquals(new ProviderTimeouts(10_000, 30_000, 120_000), ProviderSettings.timeouts(settings.current()));
    }

    @Test
    void theReplyCapDefaultsTo32MiBAndRefusesValuesOutsideItsRange() throws IOException {
        SettingsStore settings = SettingsStore.inMemory();
        assertEquals(32L * 1024 * 1024, ProviderSettings.maxReplyBytes(settings.current()));
        settings.set("retry.provider.maxReplyBytes", Json.mapper().getNodeFactory().numberNode(1_048_576));
        assertEquals(1_048_576, ProviderSettings.maxReplyBytes(settings.current()));
        settings.set("retry.provider.maxReplyBytes", Json.mapper().getNodeFactory().numberNode(1_000));
        assertEquals(32L * 1024 * 1024, ProviderSettings.maxReplyBytes(settings.current()), "below 64 KiB");
        settings.set("retry.provider.maxReplyBytes", Json.mapper().getNodeFactory().numberNode(1L << 40));
        assertEquals(32L * 1024 * 1024, ProviderSettings.maxReplyBytes(settings.current()), "above 256 MiB");
    }
}
