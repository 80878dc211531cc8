/**
 * Models and the providers that stream them: {@link dev.agentd.server.ai.Provider} (one request
 * per call, never throws), {@link dev.agentd.server.ai.AssistantMessageBuilder} (the one place
 * stream events are shaped), the model registry and thinking-level support. Subpackages hold the
 * provider implementations. May import {@code protocol}, {@code ai.catalog} (built-in models and
 * their thinking levels) and {@code runtime}; nothing above.
 */
package dev.agentd.server.ai;
