package dev.agentd.server.e2e;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded, grammar-aware generator of client lines for {@link GrammarFuzzIT}: commands built from
 * their field schema with valid or mutated values (wrong types, huge numbers, long and unicode
 * strings), odd and long ids, then envelope damage (truncation, trailing garbage, invalid UTF-8,
 * duplicate keys, deep nesting), huge lines, and the run races (prompt / steer / follow_up /
 * abort / abort_retry). Each line knows the id its one response must carry, or null when no
 * response can carry one. Nothing generated runs a shell command or touches a file: {@code bash},
 * {@code switch_session} and {@code fork} only appear with a mistyped field, and model switches
 * are left out so every prompt goes to the hostile HTTP provider.
 */
final class FuzzGrammar {
    /** A command and its fields: name, kind ({@code s}tring, {@code b}oolean, {@code i}nteger, {@code e}num), values. */
    private record Field(String name, char kind, String... values) {}

    private record Command(String type, Field... fields) {}

    private static final Command[] HARMLESS = {
        new Command("get_state"), new Command("get_messages"), new Command("clear_queue"),
        new Command("get_available_models"), new Command("get_session_stats"), new Command("get_commands"),
        new Command("get_last_assistant_text"), new Command("get_retry_settings"), new Command("get_fork_messages"),
        new Command("get_fallback_state"), new Command("cycle_thinking_level"), new Command("abort_bash"),
        new Command("set_thinking_level", new Field("level", 'e', "off", "low", "medium", "high", "xhigh")),
        new Command("set_steering_mode", new Field("mode", 'e', "all", "one-at-a-time")),
        new Command("set_follow_up_mode", new Field("mode", 'e', "all", "one-at-a-time")),
        new Command("set_event_options", new Field("updates", 'e', "delta", "full")),
        new Command("set_auto_retry", new Field("enabled", 'b')),
        new Command("set_auto_compaction", new Field("enabled", 'b')),
        new Command("set_session_name", new Field("name", 's')),
        new Command("set_model_fallback", new Field("enabled", 'b')),
    };

    /** The run races: these start, steer, queue and end runs against the hostile provider. */
    private static final Command[] RACES = {
        new Command("prompt", new Field("message", 's')),
        new Command("prompt", new Field("message", 's'), new Field("streamingBehavior", 'e', "steer", "followUp")),
        new Command("steer", new Field("message", 's')), new Command("follow_up", new Field("message", 's')),
        new Command("abort"), new Command("abort_retry"),
    };

    /** Commands that must never run as generated: only ever sent with a field of the wrong type. */
    private static final Command[] MISTYPED_ONLY = {
        new Command("bash", new Field("command", 's')), new Command("switch_session", new Field("sessionPath", 's')),
        new Command("fork", new Field("entryId", 's')), new Command("set_model", new Field("provider", 's')),
        new Command("set_retry_settings", new Field("maxRetries", 'i')), new Command("faux_enqueue",
                new Field("steps", 'i')),
    };

    private static final String[] WRONG = {"42", "-0.5", "true", "{}", "[\"a\"]", "null", "1e400",
        "99999999999999999999999", "\"\"", "[[[[]]]]", "-9223372036854775809", "NaN", "\"\\ud800\""};
    /** Never a string or an in-range integer: a mistyped field can never make bash or set_retry_settings run. */
    private static final String[] NOT_STRING = {"42", "-0.5", "true", "{}", "[\"a\"]", "1e400", "[[[[]]]]"};
    private static final String[] NOT_INTEGER = {"\"5\"", "true", "{}", "\"x\"", "[1]"};
    private static final String[] UNICODE = {"\\u2028", "\\u2029", "\\u0085", "\\u0000", "\\ud83d\\ude00", "\u00e9",
        "\u4e2d\u6587", "\ud83d\udca5", "\\\"", "\\\\", "\\n", "\\t", "\\ud800", "\\udfff"};

    private final Random random;
    private int counter;

    FuzzGrammar(long seed) {
        this.random = new Random(seed);
    }

    /** {@code count} lines; about one in {@code raceEvery} is a run race. */
    List<FuzzInput.Line> lines(int count, int raceEvery) {
        List<FuzzInput.Line> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add(random.nextInt(raceEvery) == 0 ? command(RACES[random.nextInt(RACES.length)], true) : line());
        }
        return lines;
    }

    private FuzzInput.Line line() {
        int dice = random.nextInt(100);
        if (dice < 40) {
            return command(HARMLESS[random.nextInt(HARMLESS.length)], random.nextInt(3) > 0);
        } else if (dice < 50) {
            return command(MISTYPED_ONLY[random.nextInt(MISTYPED_ONLY.length)], false);
        } else if (dice < 70) {
            return damaged();
        } else if (dice < 78) {
            return longIdInBrokenLine();
        } else if (dice < 84) {
            return oddId();
        } else if (dice < 92) {
            return garbage();
        } else if (dice < 96) {
            return unknown();
        } else if (dice < 99) {
            return deep();
        }
        return huge();
    }

    /** A well-formed command: fields valid, or (when {@code valid} is false) one of them mistyped. */
    private FuzzInput.Line command(Command command, boolean valid) {
        String id = nextId("c");
        StringBuilder json = new StringBuilder("{\"type\":\"").append(command.type()).append("\",\"id\":\"")
                .append(id).append('"');
        int broken = valid || command.fields().length == 0 ? -1 : random.nextInt(command.fields().length);
        for (int i = 0; i < command.fields().length; i++) {
            Field field = command.fields()[i];
            json.append(",\"").append(field.name()).append("\":").append(i == broken ? wrong(field) : value(field));
        }
        if (random.nextInt(10) == 0) {
            json.append(",\"unknownField\":{\"nested\":[1,{\"x\":null}]}");
        }
        return FuzzInput.Line.text(json.append('}').toString(), id, command.type());
    }

    private String wrong(Field field) {
        return switch (field.kind()) {
            case 's' -> pick(NOT_STRING);
            case 'i' -> pick(NOT_INTEGER);
            default -> pick(WRONG);
        };
    }

    private String value(Field field) {
        return switch (field.kind()) {
            case 'b' -> Boolean.toString(random.nextBoolean());
            case 'i' -> Integer.toString(random.nextInt(10));
            case 'e' -> "\"" + pick(field.values()) + "\"";
            default -> "\"" + text(1 + random.nextInt(random.nextInt(10) == 0 ? 5000 : 40)) + "\"";
        };
    }

    /** JSON string content: ASCII words with unicode, escapes and lone surrogates mixed in. */
    String text(int length) {
        StringBuilder text = new StringBuilder();
        while (text.length() < length) {
            text.append(random.nextInt(5) == 0 ? pick(UNICODE) : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    /** A valid command cut short, with trailing garbage, or with an invalid byte after its id. */
    private FuzzInput.Line damaged() {
        FuzzInput.Line whole = command(HARMLESS[random.nextInt(HARMLESS.length)], true);
        String json = new String(whole.bytes(), StandardCharsets.UTF_8);
        String idText = "\"id\":\"" + whole.expectedId() + "\"";
        int idEnd = json.indexOf(idText) + idText.length();
        return switch (random.nextInt(4)) {
            case 0 -> {
                String cut = json.substring(0, 1 + random.nextInt(json.length() - 1));
                yield FuzzInput.Line.text(cut, cut.length() >= idEnd ? whole.expectedId() : null, "truncated");
            }
            case 1 -> FuzzInput.Line.text(json + pick(new String[] {" x", "}", ",", " {}", "]"}), whole.expectedId(),
                    "trailing");
            case 2 -> {
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                byte[] bad = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, bad, 0, idEnd);
                bad[idEnd] = (byte) pick(new int[] {0xFF, 0xC0, 0x80, 0xED});
                System.arraycopy(bytes, idEnd, bad, idEnd + 1, bytes.length - idEnd);
                yield new FuzzInput.Line(bad, whole.expectedId(), "invalid-utf8");
            }
            default -> FuzzInput.Line.text(json.substring(0, json.length() - 1) + ",\"id\":\"" + whole.expectedId()
                    + "\",\"type\":\"get_state\"}", whole.expectedId(), "duplicate-keys");
        };
    }

    /** Issue 12: a broken line with a long id used to kill the reader. */
    private FuzzInput.Line longIdInBrokenLine() {
        String id = nextId("L") + "x".repeat(500 + random.nextInt(8000));
        return FuzzInput.Line.text("{\"type\":\"get_state\",\"id\":\"" + id + "\"" + pick(new String[] {" x", ",", ""}),
                id, "long-id-broken");
    }

    private FuzzInput.Line oddId() {
        String n = Integer.toString(counter++);
        return switch (random.nextInt(6)) {
            case 0 -> FuzzInput.Line.text("{\"id\":" + n + ",\"type\":\"get_state\"}", null, "numeric-id");
            case 1 -> FuzzInput.Line.text("{\"id\":[\"" + n + "\"],\"type\":\"get_state\"}", null, "array-id");
            case 2 -> FuzzInput.Line.text("{\"id\":\"u" + n + "\\u2028\\ud83d\\ude00\",\"type\":\"get_state\"}",
                    "u" + n + "\u2028\ud83d\ude00", "unicode-id");
            case 3 -> FuzzInput.Line.text("{\"type\":\"get_state\"}", null, "no-id");
            case 4 -> {
                String id = "long" + n + "y".repeat(2000 + random.nextInt(20_000));
                yield FuzzInput.Line.text("{\"id\":\"" + id + "\",\"type\":\"get_state\"}", id, "long-id");
            }
            default -> FuzzInput.Line.text("{\"id\":null,\"type\":\"get_state\"}", null, "null-id");
        };
    }

    /** Bytes that never spell an id key: invalid UTF-8, NUL, CR, JSON punctuation. */
    FuzzInput.Line garbage() {
        byte[] special = {0, (byte) 0xFF, (byte) 0xC0, (byte) 0xED, (byte) 0xA0, '{', '}', '[', ']', ':', ',', '\\',
            '\r', (byte) 0xF4};
        byte[] bytes = new byte[1 + random.nextInt(200)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = random.nextInt(3) == 0 ? special[random.nextInt(special.length)] : (byte) random.nextInt(256);
            if (bytes[i] == '\n' || bytes[i] == '"') {
                bytes[i] = 'g';
            }
        }
        return new FuzzInput.Line(bytes, null, "garbage");
    }

    private FuzzInput.Line unknown() {
        String id = nextId("u");
        String name = pick(new String[] {"fuzz", "", "GET_STATE", "\\u0000", "\\ud800", "x".repeat(3000)});
        return FuzzInput.Line.text("{\"id\":\"" + id + "\",\"type\":\"" + name + "\"}", id, "unknown");
    }

    private FuzzInput.Line deep() {
        String id = nextId("d");
        int depth = 500 + random.nextInt(5000);
        return FuzzInput.Line.text("{\"id\":\"" + id + "\",\"type\":\"get_state\",\"x\":" + "[".repeat(depth)
                + "]".repeat(depth) + "}", id, "deep");
    }

    /** About 1 MB: a valid command with a huge field, or the same cut short. */
    private FuzzInput.Line huge() {
        String id = nextId("h");
        String json = "{\"type\":\"get_state\",\"id\":\"" + id + "\",\"pad\":\"" + text(1 << 20) + "\"}";
        return FuzzInput.Line.text(random.nextBoolean() ? json : json.substring(0, json.length() / 2), id, "huge");
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private int pick(int[] values) {
        return values[random.nextInt(values.length)];
    }

    private String nextId(String prefix) {
        return prefix + counter++;
    }
}
