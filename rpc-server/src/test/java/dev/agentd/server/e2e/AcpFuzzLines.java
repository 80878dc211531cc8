package dev.agentd.server.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded hostile JSON-RPC lines for {@link AcpFuzzIT} (the report's {@code a_acp.py malformed}, cut
 * down): wrong {@code jsonrpc}, bodies that are not objects, methods and ids of every JSON type (ids
 * up to {@code 1e308} and objects), junk params, long method names, relative / NUL / {@code ..}
 * working directories, {@code ..} session ids, CR endings, duplicate keys, truncation, and seeded
 * mutations of the real requests against a pool of live sessions. Each line's {@code expectedId} is
 * the {@link #key key} of an id that must be answered exactly once, or null; ids a reply may or may
 * not carry (a cut or duplicated line) are in {@link #optional}, every id written at top level in
 * {@link #sent}. Garbage bytes and unicode text come from {@link FuzzGrammar}. Nothing generated
 * runs a tool: the faux model's default reply is text, and no faux-2 step is ever reached from here
 * (the storm session's slow reply is bound to faux-2, which the fuzz never selects).
 */
final class AcpFuzzLines {
    private static final String[] METHODS = {"initialize", "authenticate", "session/new", "session/load",
        "session/resume", "session/list", "session/prompt", "session/cancel", "session/set_config_option",
        "session/close", "session/set_mode", "fs/read_text_file", "x/unknown", "", "SESSION/NEW"};
    private static final String[] JUNK = {"42", "-0.5", "true", "null", "\"str\"", "[]", "[1,{\"a\":null}]", "{}",
        "1e400", "99999999999999999999999", "\"\\u0000\"", "\"\\ud800\""};

    private final Random random;
    private final FuzzGrammar grammar;
    private final String cwd;
    private final List<String> sessions;
    private final Set<String> optional = new HashSet<>();
    private final Set<String> sent = new HashSet<>();
    private int counter;

    /** @param sessions live session ids the mutations aim at (never one the test needs afterwards) */
    AcpFuzzLines(long seed, String cwd, List<String> sessions) {
        this.random = new Random(seed);
        this.grammar = new FuzzGrammar(seed + 1);
        this.cwd = cwd;
        this.sessions = List.copyOf(sessions);
    }

    /** The answer key of a JSON-RPC id: strings and numbers (compared by value); null for other types. */
    static String key(JsonNode id) {
        if (id == null || id.isNull()) {
            return null;
        }
        if (id.isTextual()) {
            return "s:" + id.textValue();
        }
        return id.isNumber() ? "n:" + id.decimalValue().stripTrailingZeros().toPlainString() : null;
    }

    Set<String> optional() {
        return optional;
    }

    Set<String> sent() {
        return sent;
    }

    List<FuzzInput.Line> lines(int count) {
        List<FuzzInput.Line> lines = new ArrayList<>(count);
        while (lines.size() < count) {
            int dice = random.nextInt(100);
            if (dice < 35) {
                lines.add(request(mutated(valid())));
            } else if (dice < 42) {
                lines.add(wrongVersion());
            } else if (dice < 47) {
                lines.add(FuzzInput.Line.text(pick(new String[] {"[]", "null", "\"body\"", "42", "true", "[1,2]",
                    "[{\"jsonrpc\":\"2.0\",\"id\":\"inner\",\"method\":\"initialize\"}]"}), null, "not-object"));
            } else if (dice < 55) {
                lines.add(methodOfAnyType());
            } else if (dice < 63) {
                lines.add(request(base(pick(METHODS)).set("params", raw(pick(JUNK)))));
            } else if (dice < 66) {
                lines.add(request(base(grammar.text(2000 + random.nextInt(20_000)))));
            } else if (dice < 72) {
                lines.add(request(hostileCwd()));
            } else if (dice < 76) {
                lines.add(request(dotDotSession()));
            } else if (dice < 81) {
                lines.add(crEnding());
            } else if (dice < 85) {
                lines.add(duplicateKeys());
            } else if (dice < 93) {
                lines.add(truncated());
            } else {
                lines.add(grammar.garbage());
            }
        }
        return lines;
    }

    /** A valid request of a random method, with an id of a random type, against the pool. */
    ObjectNode valid() {
        String method = pick(new String[] {"initialize", "session/new", "session/prompt", "session/prompt",
            "session/cancel", "session/cancel", "session/list", "session/load", "session/resume",
            "session/set_config_option", "session/close", "authenticate"});
        ObjectNode request = base(method);
        ObjectNode params = request.putObject("params");
        switch (method) {
            case "initialize" -> params.put("protocolVersion", 1).putObject("clientCapabilities");
            case "session/new" -> params.put("cwd", cwd).putArray("mcpServers");
            case "session/list" -> params.put("cwd", cwd);
            case "session/load", "session/resume" -> params.put("sessionId", session()).put("cwd", cwd)
                    .putArray("mcpServers");
            case "session/prompt" -> params.put("sessionId", session()).putArray("prompt").addObject()
                    .put("type", "text").put("text", "fuzz " + grammar.text(1 + random.nextInt(60)));
            case "session/set_config_option" -> {
                boolean model = random.nextBoolean();
                params.put("sessionId", session()).put("configId", model ? "model" : "thought_level")
                        .put("value", model ? pick(new String[] {"faux/faux-1", "nope/x", ""})
                                : pick(new String[] {"off", "low", "high", "ultra"}));
            }
            default -> params.put("sessionId", session());
        }
        if (method.equals("session/cancel") && random.nextBoolean()) {
            request.remove("id"); // the notification ACP defines; with an id it must be answered (N15)
        }
        return request;
    }

    /** Most of the time unchanged; else one field dropped, retyped or replaced. */
    private ObjectNode mutated(ObjectNode request) {
        ObjectNode params = (ObjectNode) request.path("params");
        switch (random.nextInt(8)) {
            case 0 -> params.remove(pick(new String[] {"sessionId", "cwd", "prompt", "configId", "value"}));
            case 1 -> params.set(pick(new String[] {"sessionId", "cwd", "prompt", "value"}), raw(pick(JUNK)));
            case 2 -> params.put("sessionId", pick(new String[] {"", "nope", grammar.text(300), "\\u0000"}));
            case 3 -> params.set("unknownField", raw("{\"nested\":[1,{\"x\":null}]}"));
            case 4 -> {
                if (params.has("prompt")) {
                    ArrayNode blocks = params.putArray("prompt");
                    blocks.addObject().put("type", pick(new String[] {"image", "audio", "resource", "resource_link",
                        "nope"})).put("data", "@@not-base64@@").put("uri", "file:///etc/passwd");
                    blocks.addObject().put("type", "text").put("text", grammar.text(20));
                }
            }
            default -> { }
        }
        return request;
    }

    private FuzzInput.Line wrongVersion() {
        ObjectNode request = base(pick(new String[] {"initialize", "session/list", "authenticate", "x/y"}));
        request.set("jsonrpc", raw(pick(new String[] {"\"1.0\"", "2.0", "null", "\"\"", "{}"})));
        if (random.nextBoolean()) {
            request.remove("jsonrpc");
        }
        request.putObject("params").put("cwd", cwd);
        return request(request);
    }

    private FuzzInput.Line methodOfAnyType() {
        ObjectNode request = base("x");
        request.set("method", raw(pick(new String[] {"42", "null", "{}", "[\"session/new\"]", "true", "1e308"})));
        return request(request);
    }

    private ObjectNode hostileCwd() {
        ObjectNode request = base(pick(new String[] {"session/new", "session/list", "session/load"}));
        String value = pick(new String[] {"work", "./x", "", "relative/../x", cwd + "\u0000x", cwd + "/../work",
            cwd + "/missing/..", cwd + "/" + "d".repeat(3000)});
        request.putObject("params").put("cwd", value).put("sessionId", session()).putArray("mcpServers");
        return request;
    }

    private ObjectNode dotDotSession() {
        ObjectNode request = base(pick(new String[] {"session/load", "session/resume", "session/prompt",
            "session/close", "session/cancel"}));
        request.putObject("params").put("cwd", cwd).put("sessionId", pick(new String[] {"../../../../etc/passwd",
            "..", "../" + session(), session() + "/..", "x\r\n{\"jsonrpc\":\"2.0\"}"}))
                .putArray("prompt").addObject().put("type", "text").put("text", "dot dot");
        return request;
    }

    /** A whole request ending in CR LF: whitespace to JSON, so it is answered. */
    private FuzzInput.Line crEnding() {
        FuzzInput.Line line = request(valid());
        return FuzzInput.Line.text(new String(line.bytes(), java.nio.charset.StandardCharsets.UTF_8) + "\r",
                line.expectedId(), "cr " + line.kind());
    }

    /** Two ids (and two methods): whichever a parser keeps may be answered, never both. */
    private FuzzInput.Line duplicateKeys() {
        String first = nextId("dup");
        String second = nextId("dup");
        optional.add("s:" + first);
        optional.add("s:" + second);
        sent.add("s:" + first);
        sent.add("s:" + second);
        return FuzzInput.Line.text("{\"jsonrpc\":\"2.0\",\"id\":\"" + first + "\",\"method\":\"session/list\","
                + "\"params\":{\"cwd\":" + quoted(cwd) + "},\"method\":\"initialize\",\"id\":\"" + second + "\"}",
                null, "duplicate-keys");
    }

    /** A request cut short: a parse error whose id cannot be trusted, so answering it is optional. */
    private FuzzInput.Line truncated() {
        FuzzInput.Line whole = request(valid());
        String text = new String(whole.bytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (whole.expectedId() != null) {
            optional.add(whole.expectedId());
        }
        return FuzzInput.Line.text(text.substring(0, 1 + random.nextInt(text.length() - 1)), null, "truncated");
    }

    /** {@code {"jsonrpc":"2.0","id":<any type>,"method":method}}. */
    ObjectNode base(String method) {
        ObjectNode request = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
        int n = counter++;
        request.set("id", raw(switch (random.nextInt(12)) {
            case 0 -> Integer.toString(1_000_000 + n);
            case 1 -> (1_000_000 + n) + ".5";
            case 2 -> "{\"n\":" + n + "}";
            case 3 -> "[" + n + "]";
            case 4 -> "true";
            case 5 -> "null";
            case 6 -> quoted(nextId("u") + "\u2028\ud83d\ude00\"\\");
            default -> quoted(nextId("a"));
        }));
        request.put("method", method);
        return request;
    }

    /** The line for a well-formed request: its usable id must be answered exactly once. */
    FuzzInput.Line request(ObjectNode request) {
        String key = key(request.get("id"));
        if (key != null) {
            sent.add(key);
        }
        try {
            return FuzzInput.Line.text(Json.mapper().writeValueAsString(request), key,
                    request.path("method").asText("?"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String session() {
        return sessions.get(random.nextInt(sessions.size()));
    }

    private static JsonNode raw(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quoted(String text) {
        try {
            return Json.mapper().writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    String nextId(String prefix) {
        return prefix + counter++;
    }
}
