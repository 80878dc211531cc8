package dev.agentd.server.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;

/**
 * {@code circuits.json} ⇄ {@link StateBook}. The layout (epoch milliseconds throughout):
 * <pre>{"version":1, "generation":7,
 *  "circuits":{"anthropic/claude-x":{"openUntil":…, "retryFloorUntil":…, "consecutiveOpens":2,
 *              "lease":{"owner":"…:turn", "generation":7, "expiresAt":…}}},
 *  "credentialBlocks":{"anthropic:&lt;hex&gt;":…until}}</pre>
 * Reading is lenient: an entry of the wrong shape is dropped, never fatal (the state is a cache of
 * recent failures; losing one entry costs at most one request). So is a selector, credential key
 * or lease owner longer than {@link #MAX_NAME_CHARS}, which no model id or session id comes near:
 * the file stays small whoever wrote it.
 */
final class StateJson {
    static final int VERSION = 1;
    static final int MAX_NAME_CHARS = 256;

    private StateJson() {}

    static StateBook read(JsonNode root) {
        StateBook book = new StateBook();
        book.generation = Math.max(0, root.path("generation").asLong(0));
        root.path("circuits").properties().forEach(entry -> circuit(entry.getValue())
                .filter(record -> fits(entry.getKey()))
                .ifPresent(record -> book.circuits.put(entry.getKey(), record)));
        root.path("credentialBlocks").properties().forEach(entry -> {
            if (entry.getValue().isIntegralNumber() && fits(entry.getKey())) {
                book.blocks.put(entry.getKey(), entry.getValue().longValue());
            }
        });
        return book;
    }

    /** Replaces {@code root}'s content with {@code book}. */
    static void write(StateBook book, ObjectNode root) {
        root.removeAll();
        root.put("version", VERSION);
        root.put("generation", book.generation);
        ObjectNode circuits = root.putObject("circuits");
        book.circuits.forEach((selector, record) -> {
            if (!fits(selector)) {
                return; // read back it would be dropped anyway
            }
            ObjectNode node = circuits.putObject(selector);
            node.put("openUntil", record.openUntil());
            node.put("retryFloorUntil", record.retryFloorUntil());
            node.put("consecutiveOpens", record.consecutiveOpens());
            record.lease().filter(lease -> fits(lease.owner())).ifPresent(lease -> node.putObject("lease").put("owner", lease.owner())
                    .put("generation", lease.generation()).put("expiresAt", lease.expiresAt()));
        });
        ObjectNode blocks = root.putObject("credentialBlocks");
        for (Map.Entry<String, Long> block : book.blocks.entrySet()) {
            if (fits(block.getKey())) {
                    blocks.put(block.getKey(), block.getValue());
            }
        }
    }

    private static boolean fits(String name) {
        return name.length() <= MAX_NAME_CHARS;
    }

    private static Optional<CircuitRecord> circuit(JsonNode node) {
        if (!node.path("openUntil").isIntegralNumber() || !node.path("consecutiveOpens").isIntegralNumber()) {
            return Optional.empty();
        }
        JsonNode lease = node.path("lease");
        Optional<CircuitRecord.Lease> held = lease.path("owner").isTextual() && fits(lease.get("owner").textValue())
                && lease.path("generation").isIntegralNumber()
                && lease.path("expiresAt").isIntegralNumber()
                ? Optional.of(new CircuitRecord.Lease(lease.get("owner").textValue(), lease.get("generation").longValue(),
                        lease.get("expiresAt").longValue()))
                : Optional.empty();
        return Optional.of(new CircuitRecord(node.get("openUntil").longValue(), node.path("retryFloorUntil").asLong(0),
                Math.max(0, node.get("consecutiveOpens").intValue()), held));
    }
}
