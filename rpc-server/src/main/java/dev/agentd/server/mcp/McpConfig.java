package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads MCP server entries, pure: the {@code mcpServers} map of settings.json (the shape Claude
 * Code and pi 1.x use) and the {@code mcpServers} array of ACP's {@code session/new},
 * {@code session/load} and {@code session/resume}. A bad entry is a warning naming it and is
 * skipped; the others still run. Every list and value is bounded.
 */
public final class McpConfig {
    static final int MAX_SERVERS = 32;
    static final int MAX_ARGS = 256;
    static final int MAX_VALUE_CHARS = 16 * 1024;
    static final long DEFAULT_TIMEOUT_MS = 60_000;
    static final long MAX_TIMEOUT_MS = 3_600_000;
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]{0,127})}");

    /** What was read: the servers to start and why others were not. */
    public record Parsed(List<McpServerSpec> servers, List<String> warnings) {
        public Parsed {
            servers = List.copyOf(servers);
            warnings = List.copyOf(warnings);
        }

        public static Parsed none() {
            return new Parsed(List.of(), List.of());
        }
    }

    private McpConfig() {}

    /**
     * The settings.json shape: {@code {"name": {"command", "args", "env", "cwd"} | {"url", "headers",
     * "type"}, "timeout" (seconds), "enabled"}}. {@code ${NAME}} in {@code env} and {@code headers}
     * values is replaced by agentd's variable of that name: only what an entry names reaches a server.
     *
     * @param cwd the session's directory, against which a relative {@code cwd} resolves
     * @param env agentd's environment, for {@code ${NAME}}
     */
    public static Parsed fromSettings(JsonNode servers, Path cwd, Function<String, String> env) {
        List<McpServerSpec> specs = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        if (servers == null || servers.isMissingNode() || servers.isNull()) {
            return Parsed.none();
        }
        if (!servers.isObject()) {
            return new Parsed(List.of(), List.of("settings.json: mcpServers must be an object of named servers"));
        }
        var fields = servers.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            String name = field.getKey();
            JsonNode entry = field.getValue();
            String where = "settings.json: MCP server '" + printable(name) + "'";
            if (!entry.isObject()) {
                warnings.add(where + " must be an object");
                continue;
            }
            if (!entry.path("enabled").asBoolean(true)) {
                continue;
            }
            try {
                specs.add(settingsEntry(name, entry, cwd, env, warnings, where));
            } catch (IllegalArgumentException e) {
                warnings.add(where + ": " + e.getMessage() + "; skipped");
            }
        }
        return bounded(specs, warnings, "settings.json");
    }

    private static McpServerSpec settingsEntry(String name, JsonNode entry, Path cwd, Function<String, String> env,
            List<String> warnings, String where) {
        requireName(name);
        String type = entry.path("type").asText("");
        boolean hasCommand = entry.hasNonNull("command");
        boolean hasUrl = entry.hasNonNull("url");
        if (hasCommand == hasUrl) {
            throw new IllegalArgumentException(hasCommand ? "has both command and url" : "needs a command or a url");
        }
        long timeoutMs = timeoutOf(entry.path("timeout"));
        McpServerSpec.Transport transport;
        if (hasCommand) {
            if (!type.isEmpty() && !type.equals("stdio")) {
                throw new IllegalArgumentException("type '" + printable(type) + "' does not take a command");
            }
            Path dir = entry.hasNonNull("cwd") ? cwd.resolve(home(text(entry.get("cwd"), "cwd"))).normalize() : cwd;
            transport = new McpServerSpec.Stdio(home(text(entry.get("command"), "command")),
                    strings(entry.path("args")).stream().map(McpConfig::home).toList(),
                    expanded(pairs(entry.path("env"), "env"), env, warnings, where), dir);
        } else {
            boolean sse = switch (type) {
                case "", "http", "streamable-http" -> false;
                case "sse" -> true;
                default -> throw new IllegalArgumentException("type must be stdio, http, streamable-http or sse");
            };
            transport = new McpServerSpec.Http(url(text(entry.get("url"), "url")),
                    expanded(pairs(entry.path("headers"), "headers"), env, warnings, where), sse);
        }
        return new McpServerSpec(name, transport, timeoutMs, "settings.json");
    }

    /**
     * ACP's array: {@code {name, command, args, env:[{name,value}]}} (stdio),
     * {@code {type:"http"|"sse", name, url, headers:[{name,value}]}}. Values are taken as the editor
     * sent them (no {@code ${NAME}} expansion: the editor already resolved them).
     */
    public static Parsed fromAcp(JsonNode servers, Path cwd) {
        List<McpServerSpec> specs = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        if (servers == null || servers.isMissingNode() || servers.isNull()) {
            return Parsed.none();
        }
        if (!servers.isArray()) {
            return new Parsed(List.of(), List.of("mcpServers must be an array"));
        }
        int index = 0;
        for (JsonNode entry : servers) {
            String name = entry.path("name").asText("");
            String where = "MCP server " + (name.isEmpty() ? "#" + index : "'" + printable(name) + "'");
            index++;
            try {
                requireName(name);
                String type = entry.path("type").asText("stdio");
                McpServerSpec.Transport transport = switch (type) {
                    case "stdio" -> new McpServerSpec.Stdio(text(entry.get("command"), "command"),
                            strings(entry.path("args")), acpPairs(entry.path("env"), "env"), cwd);
                    case "http", "sse" -> new McpServerSpec.Http(url(text(entry.get("url"), "url")),
                            acpPairs(entry.path("headers"), "headers"), type.equals("sse"));
                    default -> throw new IllegalArgumentException("type must be stdio, http or sse");
                };
                specs.add(new McpServerSpec(name, transport, DEFAULT_TIMEOUT_MS, "session/new"));
            } catch (IllegalArgumentException e) {
                warnings.add(where + ": " + e.getMessage() + "; skipped");
            }
        }
        return bounded(specs, warnings, "mcpServers");
    }

    private static Parsed bounded(List<McpServerSpec> specs, List<String> warnings, String where) {
        Map<String, McpServerSpec> byNamespace = new LinkedHashMap<>();
        for (McpServerSpec spec : specs) {
            // Names differing only in '-' and '_' share a namespace: the second would shadow the first.
            String namespace = McpNames.sanitize(spec.name());
            if (byNamespace.putIfAbsent(namespace, spec) != null) {
                warnings.add(where + ": MCP server '" + spec.name() + "' names the same tools' namespace as '"
                        + byNamespace.get(namespace).name() + "'; skipped");
            }
        }
        List<McpServerSpec> kept = new ArrayList<>(byNamespace.values());
        if (kept.size() > MAX_SERVERS) {
            warnings.add(where + ": " + kept.size() + " MCP servers; only the first " + MAX_SERVERS + " are started");
            kept = kept.subList(0, MAX_SERVERS);
        }
        return new Parsed(kept, warnings);
    }

    private static void requireName(String name) {
        if (!McpNames.validServer(name)) {
            throw new IllegalArgumentException("the name must be 1 to 64 letters, digits, '_' or '-'");
        }
    }

    private static long timeoutOf(JsonNode seconds) {
        if (seconds.isMissingNode() || seconds.isNull()) {
            return DEFAULT_TIMEOUT_MS;
        }
        if (!seconds.isNumber() || seconds.asDouble() <= 0) {
            throw new IllegalArgumentException("timeout must be a positive number of seconds");
        }
        return Math.min(MAX_TIMEOUT_MS, Math.max(1, (long) (seconds.asDouble() * 1000)));
    }

    private static String text(JsonNode node, String field) {
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            throw new IllegalArgumentException(field + " must be a non-empty string");
        }
        return bounded(node.asText(), field);
    }

    private static String bounded(String value, String field) {
        if (value.length() > MAX_VALUE_CHARS) {
            throw new IllegalArgumentException(field + " is longer than " + MAX_VALUE_CHARS + " characters");
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(field + " holds a NUL character");
        }
        return value;
    }

    private static String url(String url) {
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            throw new IllegalArgumentException("url must start with http:// or https://");
        }
        return url;
    }

    private static List<String> strings(JsonNode array) {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        if (!array.isArray() || array.size() > MAX_ARGS) {
            throw new IllegalArgumentException("args must be an array of at most " + MAX_ARGS + " strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode arg : array) {
            if (!arg.isTextual()) {
                throw new IllegalArgumentException("args must hold strings");
            }
            out.add(bounded(arg.asText(), "an argument"));
        }
        return out;
    }

    private static Map<String, String> pairs(JsonNode object, String field) {
        if (object.isMissingNode() || object.isNull()) {
            return Map.of();
        }
        if (!object.isObject() || object.size() > MAX_ARGS) {
            throw new IllegalArgumentException(field + " must be an object of at most " + MAX_ARGS + " strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        object.fields().forEachRemaining(entry -> {
            if (!entry.getValue().isTextual()) {
                throw new IllegalArgumentException(field + "." + printable(entry.getKey()) + " must be a string");
            }
            out.put(bounded(entry.getKey(), field), bounded(entry.getValue().asText(), field));
        });
        return out;
    }

    private static Map<String, String> acpPairs(JsonNode array, String field) {
        if (array.isMissingNode() || array.isNull()) {
            return Map.of();
        }
        if (!array.isArray() || array.size() > MAX_ARGS) {
            throw new IllegalArgumentException(field + " must be an array of at most " + MAX_ARGS + " {name, value}");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode pair : array) {
            out.put(text(pair.get("name"), field + " name"), bounded(pair.path("value").asText(""), field));
        }
        return out;
    }

    /** {@code ${NAME}} replaced by agentd's variable; an unset one becomes empty, with a warning. */
    private static Map<String, String> expanded(Map<String, String> values, Function<String, String> env,
            List<String> warnings, String where) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            Matcher matcher = VARIABLE.matcher(value);
            StringBuilder text = new StringBuilder();
            while (matcher.find()) {
                String found = env.apply(matcher.group(1));
                if (found == null) {
                    warnings.add(where + ": ${" + matcher.group(1) + "} is not set");
                }
                matcher.appendReplacement(text, Matcher.quoteReplacement(found == null ? "" : found));
            }
            matcher.appendTail(text);
            out.put(key, text.toString());
        });
        return out;
    }

    /** A leading "~/" names the home directory (pi 1.x). */
    private static String home(String value) {
        return value.startsWith("~/") ? System.getProperty("user.home") + value.substring(1) : value;
    }

    /** A name from a file or the wire, safe in one log line. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && i < 80; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        return text.length() > 80 ? out + "…" : out.toString();
    }
}
