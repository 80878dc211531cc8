package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.server.runtime.ProviderVariables;
import java.util.Set;

/**
 * How an editor authenticates agentd (issue 26, findings A4/A14/Z3): agentd reads provider keys
 * itself, from the environment it was started with or from {@code ~/.agentd/auth.json}, so the one
 * method is an agent-handled "API key" method whose description names those variables. ACP 2.4.0
 * has no env-var method type (only {@code agent} and {@code terminal}), so the variable names also
 * ride in {@code _meta} for a client that wants to offer a form. Pure.
 */
final class AuthMethods {
    /** The one advertised method. */
    static final String API_KEY = "agentd-api-key";

    private AuthMethods() {}

    /** The {@code authMethods} of {@code initialize} and of an auth-required error's {@code data}. */
    static ArrayNode advertised() {
        Set<String> variables = ProviderVariables.providerKeys();
        ObjectNode method = AcpJson.object().put("id", API_KEY).put("name", "Provider API key")
                .put("description", "agentd reads the provider's API key from its environment ("
                        + String.join(", ", variables) + ") or from ~/.agentd/auth.json, both read at start: set one in "
                        + "the environment the editor starts agentd with, or in auth.json, and restart the agent.");
        ArrayNode names = method.putObject("_meta").putArray("agentd/envVars");
        variables.forEach(names::add);
        ArrayNode methods = AcpJson.array();
        methods.add(method);
        return methods;
    }

    /**
     * {@code authenticate}: the advertised method is accepted (agentd reads the keys itself, so
     * there is nothing to exchange); any other id is refused with the known ids — never with what was
     * sent, which a confused client might have filled with a key.
     *
     * @return the message of the -32602 error, or null when accepted
     */
    static String refusal(JsonNode params) {
        return API_KEY.equals(AcpJson.textOf(params, "methodId")) ? null
                : "unknown methodId; the authentication methods are: " + API_KEY;
    }
}
