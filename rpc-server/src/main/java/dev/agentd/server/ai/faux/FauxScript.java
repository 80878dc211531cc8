package dev.agentd.server.ai.faux;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queues of scripted replies (SPEC §6.3). A step bound to a model (its {@code model} field,
 * or the {@code model} of {@code faux_enqueue}) waits in that model's queue; an unbound step in the
 * shared queue. A faux model takes from its own queue first, then from the shared one. Thread-safe.
 */
public final class FauxScript {
    private static final String SHARED = "";
    private final Map<String, Deque<FauxStep>> queues = new HashMap<>();

    /** Appends steps; {@code model} (may be null) binds steps that name no model themselves. */
    public synchronized int enqueue(String model, List<FauxStep> steps) {
        for (FauxStep step : steps) {
            String owner = step.model() != null ? step.model() : model != null ? model : SHARED;
            queues.computeIfAbsent(normalize(owner), key -> new ArrayDeque<>()).addLast(step);
        }
        return size(model);
    }

    /** The next step for a faux model, if any is queued. */
    public synchronized Optional<FauxStep> next(String modelId) {
        Deque<FauxStep> own = queues.get(normalize(modelId));
        if (own != null && !own.isEmpty()) {
            return Optional.of(own.removeFirst());
        }
        Deque<FauxStep> shared = queues.get(SHARED);
        return shared == null || shared.isEmpty() ? Optional.empty() : Optional.of(shared.removeFirst());
    }

    /** Steps waiting in one queue ({@code null} = the shared queue). */
    public synchronized int size(String model) {
        Deque<FauxStep> queue = queues.get(model == null ? SHARED : normalize(model));
        return queue == null ? 0 : queue.size();
    }

    /** Reads a script file: a JSON array of steps, or one step per line (JSONL). */
    public static List<FauxStep> parse(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        ObjectMapper mapper = Json.mapper();
        if (text.startsWith("[")) {
            return List.of(mapper.readValue(text, FauxStep[].class));
        }
        List<FauxStep> steps = new java.util.ArrayList<>();
        int lineNumber = 0;
        for (String line : text.split("\n")) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode node = mapper.readTree(line);
                steps.add(mapper.treeToValue(node, FauxStep.class));
            } catch (IOException e) {
                throw new IOException(file + " line " + lineNumber + ": " + e.getMessage(), e);
            }
        }
        return steps;
    }

    /** Accepts {@code faux-1} and {@code faux/faux-1}. */
    private static String normalize(String model) {
        if (model == null) {
            return SHARED;
        }
        return model.startsWith(FauxModels.PROVIDER + "/") ? model.substring(FauxModels.PROVIDER.length() + 1) : model;
    }
}
