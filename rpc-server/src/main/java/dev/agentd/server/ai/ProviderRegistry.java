package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Providers by the {@code api} name models refer to. */
public final class ProviderRegistry {
    private final Map<String, Provider> byApi = new LinkedHashMap<>();

    public ProviderRegistry(List<Provider> providers) {
        for (Provider provider : providers) {
            byApi.put(provider.api(), provider);
        }
    }

    public Optional<Provider> forModel(Model model) {
        return Optional.ofNullable(byApi.get(model.api()));
    }
}
