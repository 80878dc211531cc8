package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's ACP config options (issue 16 §2): the model ({@code category:"model"}, values are
 * {@code provider/id} selectors) and the thinking level ({@code category:"thought_level"}). Pure.
 */
final class ConfigOptions {
    static final String MODEL = "model";
    static final String THOUGHT_LEVEL = "thought_level";

    private ConfigOptions() {}

    /** Both options; the current model is listed even when it is not among {@code available}. */
    static ArrayNode of(List<Model> available, Model current, ThinkingLevel level) {
        List<Model> models = new ArrayList<>(available);
        if (current != null && models.stream().noneMatch(m -> m.selector().equals(current.selector()))) {
            models.add(0, current);
        }
        ArrayNode modelValues = AcpJson.array();
        for (Model model : models) {
            modelValues.add(AcpJson.object().put("value", model.selector())
                    .put("name", model.name() == null || model.name().isBlank() ? model.id() : model.name())
                    .put("description", model.selector()));
        }
        ArrayNode levels = AcpJson.array();
        for (ThinkingLevel each : ThinkingLevel.values()) {
            levels.add(AcpJson.object().put("value", each.wire()).put("name", each.wire()));
        }
        ArrayNode options = AcpJson.array();
        options.add(select(MODEL, "Model", MODEL, current == null ? "" : current.selector(), modelValues));
        options.add(select(THOUGHT_LEVEL, "Thinking", THOUGHT_LEVEL, level == null ? "off" : level.wire(), levels));
        return options;
    }

    private static ObjectNode select(String id, String name, String category, String current, ArrayNode values) {
        ObjectNode option = AcpJson.object().put("id", id).put("name", name).put("category", category)
                .put("type", "select").put("currentValue", current);
        option.set("options", values);
        return option;
    }
}
