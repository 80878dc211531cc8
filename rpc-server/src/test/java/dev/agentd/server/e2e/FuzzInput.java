package dev.agentd.server.e2e;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded generator of hostile stdin lines for {@link FuzzIT}. Each line knows the id a response
 * must echo (when the daemon can recover one) so the test can check "exactly one response per
 * id". Nothing generated here can run a shell command: {@code bash} only ever appears with a
 * mistyped field.
 */
final class FuzzInput {
    /** One stdin line (without its LF); {@code expectedId} is null when no response can carry an id. */
    record Line(byte[] bytes, String expectedId, String kind) {
        static Line text(String json, String expectedId, String kind) {
            return new Line(json.getBytes(StandardCharsets.UTF_8), expectedId, kind);
        }
    }

    /** Well-formed commands that are harmless in any order (no shell, no file outside the test dirs). */
    private static final String[] VALID = {
        "{\"id\":\"%s\",\"type\":\"get_state\"}",
        "{\"id\":\"%s\",\"type\":\"get_messages\"}",
        "{\"id\":\"%s\",\"type\":\"clear_queue\"}",
        "{\"id\":\"%s\",\"type\":\"abort\"}",
        "{\"id\":\"%s\",\"type\":\"abort_retry\"}",
        "{\"id\":\"%s\",\"type\":\"abort_bash\"}",
        "{\"id\":\"%s\",\"type\":\"get_available_models\"}",
        "{\"id\":\"%s\",\"type\":\"get_session_stats\"}",
        "{\"id\":\"%s\",\"type\":\"get_commands\"}",
        "{\"id\":\"%s\",\"type\":\"get_last_assistant_text\"}",
        "{\"id\":\"%s\",\"type\":\"get_retry_settings\"}",
        "{\"id\":\"%s\",\"type\":\"get_fork_messages\"}",
        "{\"id\":\"%s\",\"type\":\"get_fallback_state\"}",
        "{\"id\":\"%s\",\"type\":\"cycle_thinking_level\"}",
        "{\"id\":\"%s\",\"type\":\"cycle_model\"}",
        "{\"id\":\"%s\",\"type\":\"set_thinking_level\",\"level\":\"low\"}",
        "{\"id\":\"%s\",\"type\":\"set_steering_mode\",\"mode\":\"all\"}",
        "{\"id\":\"%s\",\"type\":\"set_follow_up_mode\",\"mode\":\"one-at-a-time\"}",
        "{\"id\":\"%s\",\"type\":\"set_event_options\",\"updates\":\"delta\"}",
        "{\"id\":\"%s\",\"type\":\"set_event_options\",\"updates\":\"full\"}",
        "{\"id\":\"%s\",\"type\":\"set_auto_retry\",\"enabled\":true}",
        "{\"id\":\"%s\",\"type\":\"set_session_name\",\"name\":\"fuzz \\u2028 session\"}",
        "{\"id\":\"%s\",\"type\":\"steer\",\"message\":\"steer \\u0000 me\"}",
        "{\"id\":\"%s\",\"type\":\"follow_up\",\"message\":\"and then\"}",
        "{\"id\":\"%s\",\"type\":\"prompt\",\"message\":\"hello \\ud83d\\ude00\"}",
        "{\"id\":\"%s\",\"type\":\"prompt\",\"message\":\"queued\",\"streamingBehavior\":\"followUp\"}",
        "{\"type\":\"get_state\",\"id\":\"%s\",\"unknownField\":{\"nested\":[1,2,{\"x\":null}]}}",
        "{\"type\":\"get_state\",\"type\":\"abort\",\"id\":\"%s\"}",
    };

    /** command, field, and the JSON kind the field wants ({@code s}tring, {@code b}oolean, {@code i}nteger, {@code a}rray). */
    private static final String[][] TYPED = {
        {"prompt", "message", "s"}, {"prompt", "images", "a"}, {"prompt", "streamingBehavior", "s"},
        {"steer", "message", "s"}, {"follow_up", "message", "s"}, {"set_model", "provider", "s"},
        {"set_model", "modelId", "s"}, {"set_thinking_level", "level", "s"}, {"set_steering_mode", "mode", "s"},
        {"set_follow_up_mode", "mode", "s"}, {"set_auto_retry", "enabled", "b"},
        {"set_auto_compaction", "enabled", "b"}, {"bash", "command", "s"}, {"switch_session", "sessionPath", "s"},
        {"fork", "entryId", "s"}, {"set_session_name", "name", "s"}, {"set_retry_settings", "maxRetries", "i"},
        {"set_retry_settings", "baseDelayMs", "i"}, {"faux_enqueue", "steps", "a"},
        {"set_event_options", "updates", "s"}, {"set_fallback_chain", "entries", "a"},
        {"set_model_fallback", "enabled", "b"},
    };

    private static final String[] WRONG_FOR_STRING = {"42", "-0.5", "true", "{}", "[\"a\"]", "null", "{\"x\":1}"};
    private static final String[] WRONG_FOR_BOOLEAN = {"\"true\"", "1", "0", "{}", "[]", "null", "\"yes\""};
    private static final String[] WRONG_FOR_INTEGER = {"\"5\"", "1.5", "true", "1e400", "99999999999999999999999",
        "[]", "{}"};
    private static final String[] WRONG_FOR_ARRAY = {"\"steps\"", "7", "{}", "false", "[null]"};
    private static final String[] NOT_OBJECTS = {"[1,2,3]", "\"a string\"", "42", "null", "true", "[]",
        "{\"type\":\"get_state\"} trailing", "{} {}"};

    private final Random random;
    private int counter;

    FuzzInput(long seed) {
        this.random = new Random(seed);
    }

    /** {@code count} mixed lines: random bytes, truncations, wrong types, unknown commands, oddities. */
    List<Line> mixed(int count) {
        List<Line> lines = new ArrayList<>(count);
        while (lines.size() < count) {
            int dice = random.nextInt(100);
            if (dice < 20) {
                lines.add(randomBytes());
            } else if (dice < 35) {
                lines.add(truncated());
            } else if (dice < 55) {
                lines.add(wrongType());
            } else if (dice < 63) {
                lines.add(unknownCommand());
            } else if (dice < 85) {
                String id = nextId("v");
                lines.add(Line.text(VALID[random.nextInt(VALID.length)].formatted(id), id, "valid"));
            } else if (dice < 90) {
                lines.add(Line.text(NOT_OBJECTS[random.nextInt(NOT_OBJECTS.length)], null, "not-object"));
            } else if (dice < 95) {
                lines.add(oddId());
            } else if (dice < 97) {
                lines.add(Line.text(random.nextBoolean() ? "   \t " : "\r", null, "blank"));
            } else {
                lines.add(deeplyNested());
            }
        }
        return lines;
    }

    /** A burst of get_state / clear_queue / abort with unique ids, as one block of bytes. */
    List<Line> burst(int count) {
        String[] types = {"get_state", "clear_queue", "abort"};
        List<Line> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String id = nextId("b");
            lines.add(Line.text("{\"type\":\"" + types[i % types.length] + "\",\"id\":\"" + id + "\"}", id, "burst"));
        }
        return lines;
    }

    /** Lines of about {@code size} bytes: a valid command with a huge field, garbage with and without an id. */
    List<Line> big(int size) {
        String pad = "x".repeat(size);
        String valid = nextId("big");
        String invalid = nextId("big");
        byte[] garbage = new byte[size];
        for (int i = 0; i < size; i++) {
            garbage[i] = (byte) (32 + random.nextInt(90)); // printable, never a quote-id sequence by chance
            if (garbage[i] == '"') {
                garbage[i] = 'q';
            }
        }
        return List.of(
                Line.text("{\"type\":\"get_state\",\"id\":\"" + valid + "\",\"pad\":\"" + pad + "\"}", valid, "big-valid"),
                Line.text("{\"id\":\"" + invalid + "\",\"type\":\"get_state\",\"pad\":" + pad, invalid, "big-truncated"),
                new Line(garbage, null, "big-garbage"));
    }

    private Line randomBytes() {
        byte[] special = {0, (byte) 0xFF, (byte) 0xC0, (byte) 0xED, (byte) 0xA0, (byte) 0x80, '{', '}', '"', '\\',
            '\r', ':', '[', (byte) 0xF4, (byte) 0x90};
        while (true) {
            byte[] bytes = new byte[1 + random.nextInt(300)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(4) == 0 ? special[random.nextInt(special.length)]
                        : (byte) random.nextInt(256);
                if (bytes[i] == '\n') {
                    bytes[i] = 0;
                }
            }
            if (!new String(bytes, StandardCharsets.ISO_8859_1).contains("\"id\"")) {
                return new Line(bytes, null, "random-bytes");
            }
        }
    }

    /** A valid command cut short: its id can be recovered only when the cut falls after it. */
    private Line truncated() {
        String id = nextId("t");
        String full = VALID[random.nextInt(VALID.length)].formatted(id);
        String cut = full.substring(0, 1 + random.nextInt(full.length() - 1));
        boolean recoverable = cut.contains("\"id\":\"" + id + "\"");
        return Line.text(cut, recoverable ? id : null, "truncated");
    }

    private Line wrongType() {
        String[] spec = TYPED[random.nextInt(TYPED.length)];
        String[] wrong = switch (spec[2]) {
            case "s" -> WRONG_FOR_STRING;
            case "b" -> WRONG_FOR_BOOLEAN;
            case "i" -> WRONG_FOR_INTEGER;
            default -> WRONG_FOR_ARRAY;
        };
        String id = nextId("w");
        return Line.text("{\"id\":\"" + id + "\",\"type\":\"" + spec[0] + "\",\"" + spec[1] + "\":"
                + wrong[random.nextInt(wrong.length)] + "}", id, "wrong-type");
    }

    private Line unknownCommand() {
        String id = nextId("u");
        String[] names = {"fuzz_" + random.nextInt(1000), "", "GET_STATE", "get state", "\\u0000",
            "\\ud800", "\\ud83d\\ude00\\u2029", "x".repeat(1 + random.nextInt(2000))};
        return Line.text("{\"id\":\"" + id + "\",\"type\":\"" + names[random.nextInt(names.length)] + "\"}", id,
                "unknown");
    }

    /** Ids that are not plain strings, or strings with escapes the response must echo faithfully. */
    private Line oddId() {
        int which = random.nextInt(7);
        String n = Integer.toString(counter++);
        return switch (which) {
            case 0 -> Line.text("{\"id\":" + n + ",\"type\":\"get_state\"}", null, "numeric-id");
            case 1 -> Line.text("{\"id\":{\"n\":" + n + "},\"type\":\"get_state\"}", null, "object-id");
            case 2 -> Line.text("{\"id\":\"e" + n + "\\u2028\\ud83d\\ude00\",\"type\":\"get_state\"}",
                    "e" + n + "\u2028\ud83d\ude00", "escaped-id");
            case 3 -> Line.text("{\"id\":\"q" + n + "\\\"x\",\"type\":\"get_state\"}", "q" + n + "\"x", "quote-id");
            case 4 -> Line.text("{\"id\":\"tr" + n + "\",\"type\":\"get_state\"} {\"x\":1}", "tr" + n, "trailing");
            case 5 -> Line.text("{\"id\":\"es" + n + "\\u00e9\\\"q\",\"type\":\"get_st", "es" + n + "\u00e9\"q",
                    "truncated-escaped-id");
            default -> Line.text("{\"id\":null,\"type\":\"get_state\"}", null, "null-id");
        };
    }

    private Line deeplyNested() {
        String id = nextId("d");
        int depth = 2000 + random.nextInt(3000);
        return Line.text("{\"id\":\"" + id + "\",\"type\":\"get_state\",\"x\":" + "[".repeat(depth) + "]".repeat(depth)
                + "}", id, "deep");
    }

    private String nextId(String prefix) {
        return prefix + counter++;
    }

    /** The lines joined with LF, for writing in one go. */
    static byte[] join(List<Line> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Line line : lines) {
            out.writeBytes(line.bytes());
            out.write('\n');
        }
        return out.toByteArray();
    }
}
