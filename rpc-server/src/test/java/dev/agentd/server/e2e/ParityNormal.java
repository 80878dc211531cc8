package dev.agentd.server.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one normalisation {@link PiParityIT} applies to both sides' records before comparing them
 * field by field. It removes only what the scripted provider does not fix and what differs between
 * two processes by nature; everything agentd answers differently on purpose is in
 * {@link ParityAllowList} instead, so that this class never hides a difference.
 * <ul>
 * <li>{@code timestamp} fields are dropped (wall clock);
 * <li>numbers compare by value ({@code 0} equals {@code 0.0}: JSON and JavaScript have one number type);
 * <li>{@code durationMs} numbers become {@code "<ms>"}, bash's {@code wall_time_seconds} {@code "<s>"}
 *     (how long a tool ran);
 * <li>generated ids (entry ids, parents, the leaf, session ids) become {@code "<id1>"}, {@code "<id2>"},
 *     … in order of first appearance: only ids the test chose (commands {@code c-…}) and the
 *     provider's tool call ids ({@code call_…}) are kept;
 * <li>the side's own temporary directory inside any text becomes {@code "<root>"};
 * <li>consecutive {@code message_update} deltas of the same kind and content block are joined into
 *     one (the delta texts concatenated, the last one's other fields kept): how a reply is cut into
 *     writes depends on pacing (wire-compat N1), the text per block does not.
 * <li>a {@code message_update}'s top-level {@code usage} becomes {@code "<cumulative>"} unless it is
 *     the message's last update: the provider sends usage in its last chunk, and whether an earlier
 *     update shows it depends on when the side serialises (pi writes late and often shows the
 *     final usage on every update when the chunks arrive together);
 * <li>consecutive {@code tool_execution_update}s of one call become one, its partial content
 *     {@code "<streamed>"}: how a tool's output is cut into updates depends on timing too.
 * </ul>
 */
final class ParityNormal {
    private static final Set<String> ID_KEYS = Set.of("id", "parentId", "leafId", "sessionId", "firstKeptEntryId",
            "fromId", "targetId", "entryId");
    private static final Set<String> DELTAS = Set.of("text_delta", "thinking_delta", "toolcall_delta");

    private ParityNormal() {}

    static List<JsonNode> normalise(List<JsonNode> records, String root) {
        Map<String, String> ids = new HashMap<>();
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode record : records) {
            JsonNode clean = clean(record.deepCopy(), null, ids, root);
            if ("tool_execution_update".equals(clean.path("type").asText())) {
                // pi sends every chunk a tool prints, agentd what it gathered every 100 ms: one per call
                if (clean.path("partialResult") instanceof ObjectNode partial) {
                    partial.put("content", "<streamed>");
                }
                if (!out.isEmpty() && clean.equals(out.get(out.size() - 1))) {
                    continue;
                }
            }
            if (!out.isEmpty() && joins(out.get(out.size() - 1), clean)) {
                ObjectNode merged = (ObjectNode) clean;
                JsonNode previous = out.remove(out.size() - 1);
                ((ObjectNode) merged.path("assistantMessageEvent")).put("delta",
                        previous.path("assistantMessageEvent").path("delta").asText()
                                + clean.path("assistantMessageEvent").path("delta").asText());
            }
            out.add(clean);
        }
        for (int i = 0; i + 1 < out.size(); i++) {
            if (isUpdate(out.get(i)) && isUpdate(out.get(i + 1)) && out.get(i).has("usage")) {
                ((ObjectNode) out.get(i)).put("usage", "<cumulative>");
            }
        }
        return out;
    }

    private static boolean isUpdate(JsonNode node) {
        return "message_update".equals(node.path("type").asText());
    }

    private static boolean joins(JsonNode previous, JsonNode next) {
        JsonNode a = previous.path("assistantMessageEvent");
        JsonNode b = next.path("assistantMessageEvent");
        return "message_update".equals(previous.path("type").asText())
                && "message_update".equals(next.path("type").asText())
                && DELTAS.contains(a.path("type").asText()) && a.path("type").equals(b.path("type"))
                && a.path("contentIndex").equals(b.path("contentIndex"));
    }

    private static JsonNode clean(JsonNode node, String key, Map<String, String> ids, String root) {
        if (node instanceof ObjectNode object) {
            object.remove("timestamp");
            if (object.path("durationMs").isNumber()) {
                object.put("durationMs", "<ms>");
            }
            if (object.path("wall_time_seconds").isNumber()) {
                object.put("wall_time_seconds", "<s>");
            }
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            List<Map.Entry<String, JsonNode>> replaced = new ArrayList<>();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                replaced.add(Map.entry(field.getKey(), clean(field.getValue(), field.getKey(), ids, root)));
            }
            replaced.forEach(field -> object.set(field.getKey(), field.getValue()));
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, clean(array.get(i), key, ids, root));
            }
            return array;
        }
        if (node.isNumber()) {
            // JSON has one number type: 0 and 0.0 are the same value to a JavaScript client
            double value = node.doubleValue();
            return value == Math.rint(value) && Math.abs(value) < 1e15 ? LongNode.valueOf((long) value)
                    : DoubleNode.valueOf(value);
        }
        if (node.isTextual()) {
            String text = node.asText();
            if (key != null && ID_KEYS.contains(key) && !text.startsWith("c-") && !text.startsWith("call_")) {
                return TextNode.valueOf(ids.computeIfAbsent(text, unused -> "<id" + (ids.size() + 1) + ">"));
            }
            return text.contains(root) ? TextNode.valueOf(text.replace(root, "<root>")) : node;
        }
        return node;
    }

    /** The record with its keys sorted at every level: two records print alike iff they are equal. */
    static JsonNode sorted(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Map<String, JsonNode> keys = new TreeMap<>();
            object.fields().forEachRemaining(field -> keys.put(field.getKey(), sorted(field.getValue())));
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            keys.forEach(copy::set);
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            array.forEach(item -> copy.add(sorted(item)));
            return copy;
        }
        return node;
    }

    /** The paths at which {@code a} and {@code b} differ (a field missing on one side counts). */
    static List<String> differences(JsonNode a, JsonNode b, String path) {
        List<String> out = new ArrayList<>();
        if (a instanceof ObjectNode oa && b instanceof ObjectNode ob) {
            Set<String> keys = new java.util.TreeSet<>();
            oa.fieldNames().forEachRemaining(keys::add);
            ob.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                out.addAll(differences(oa.path(k), ob.path(k), path + "." + k));
            }
        } else if (a instanceof ArrayNode aa && b instanceof ArrayNode ab && aa.size() == ab.size()) {
            for (int i = 0; i < aa.size(); i++) {
                out.addAll(differences(aa.get(i), ab.get(i), path + "[" + i + "]"));
            }
        } else if (!a.equals(b)) {
            out.add(path + ": pi=" + abbreviate(a) + " agentd=" + abbreviate(b));
        }
        return out;
    }

    private static String abbreviate(JsonNode node) {
        String text = node.isMissingNode() ? "<absent>" : node.toString();
        return text.length() <= 160 ? text : text.substring(0, 160) + "…";
    }
}
