package dev.agentd.server.cli;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.UrlCredentials;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.auth.SecretResolver;
import dev.agentd.server.config.ModelsConfig;
import dev.agentd.server.config.Settings;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.state.StateConfig;
import java.util.List;
import java.util.Map;

/**
 * Fills {@link KnownSecrets} at startup with every secret the configuration holds, so that the
 * redactor hides an echo of any of them, not only of the request's own (N16): every credential
 * of every provider that needs no command ({@code !command} outputs are added when they run),
 * literal and env-named {@code models.json} header values, the state store URL's password, and
 * the user-info and query values of every model's base URL (N10). Also tells {@link AuthStore}
 * the header commands, so that a failed one is named before a request goes without its header.
 */
final class SecretInventory {
    private SecretInventory() {}

    static void register(Map<String, String> env, Settings settings, AuthStore auth, SecretResolver secrets,
            ModelsConfig modelsConfig, List<Model> custom) {
        auth.rememberSecrets();
        for (ModelsConfig.CustomProvider provider : modelsConfig.providers()) {
            auth.setHeaderSpecs(provider.name(), provider.headerSpecs());
            provider.headerSpecs().forEach((name, spec) -> {
                if (!spec.startsWith("!")) {
                    secrets.attempt(spec, "header " + name + " of " + provider.name(), CancellationToken.none());
                }
            });
        }
        UrlCredentials.secrets(env.get(StateConfig.ENV_URL)).forEach(KnownSecrets::add);
        settings.text("state.url").map(UrlCredentials::secrets).orElse(List.of()).forEach(KnownSecrets::add);
        // The built-in catalog's URLs carry no credentials; an override's baseUrl may.
        modelsConfig.providers().forEach(provider -> UrlCredentials.secrets(provider.baseUrl())
                .forEach(KnownSecrets::add));
        custom.forEach(model -> UrlCredentials.secrets(model.baseUrl()).forEach(KnownSecrets::add));
    }
}
