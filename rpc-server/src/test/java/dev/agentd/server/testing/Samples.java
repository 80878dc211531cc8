package dev.agentd.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One instance of every case of a sealed hierarchy, for tests that check a dispatcher handles each
 * case: a sealed type cannot be extended in a test, so the test walks
 * {@link Class#getPermittedSubclasses()} instead, and a case added later is fed to the dispatcher
 * without anyone editing the test. Records get plain values (text "x", numbers 1, empty
 * collections, the first enum constant, nested records and sealed types built the same way).
 */
public final class Samples {
    private Samples() {}

    /** One instance of each record permitted (directly or through nested sealed interfaces) by {@code sealed}. */
    public static <T> List<T> oneOfEach(Class<T> sealed) {
        if (!sealed.isSealed()) {
            throw new IllegalArgumentException(sealed + " is not sealed");
        }
        List<T> out = new ArrayList<>();
        for (Class<?> permitted : sealed.getPermittedSubclasses()) {
            if (permitted.isSealed()) {
                oneOfEach(permitted).forEach(sample -> out.add(sealed.cast(sample)));
            } else {
                out.add(sealed.cast(instance(permitted)));
            }
        }
        return out;
    }

    /**
     * A history holding one message of every kind, and every content block in a user message, in
     * an assistant reply (with a tool call) and in the tool result that answers it: fed to a
     * dispatcher over messages or blocks, it reaches every case. The reply comes from
     * {@code model}, so that its own thinking is kept.
     */
    public static List<AgentMessage> historyOfEveryKind(Model model) {
        List<ContentBlock> blocks = oneOfEach(ContentBlock.class);
        ContentBlock.ToolCall call = new ContentBlock.ToolCall("call-1", "read",
                JsonNodeFactory.instance.objectNode(), null);
        List<ContentBlock> replyBlocks = new ArrayList<>(blocks);
        replyBlocks.add(new ContentBlock.Thinking("plan", "sig", null));
        replyBlocks.add(call);
        List<AgentMessage> history = new ArrayList<>(oneOfEach(AgentMessage.class));
        history.add(new AgentMessage.User(blocks, 1));
        history.add(Replies.reply().content(replyBlocks).from(model).stop(StopReason.TOOL_USE).build());
        history.add(new AgentMessage.ToolResult("call-1", "read", blocks, null, false, 2));
        history.add(new AgentMessage.User(List.of(new ContentBlock.Text("next")), 3));
        return history;
    }

    /** The names of the cases {@link #oneOfEach} builds, for messages. */
    public static List<String> names(Class<?> sealed) {
        return oneOfEach(sealed).stream().map(sample -> sample.getClass().getSimpleName()).toList();
    }

    private static Object instance(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException("not a record: " + type + " (give it a hand-made sample)");
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = value(components[i].getType());
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build a sample of " + type, e);
        }
    }

    private static Object value(Class<?> type) {
        if (type == String.class) {
            return "x";
        }
        if (type == int.class || type == Integer.class) {
            return 1;
        }
        if (type == long.class || type == Long.class) {
            return 1L;
        }
        if (type == double.class || type == Double.class) {
            return 1.0;
        }
        if (type == boolean.class || type == Boolean.class) {
            return false;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == Set.class) {
            return Set.of();
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (JsonNode.class.isAssignableFrom(type)) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        if (type.isSealed()) {
            return oneOfEach(type).get(0);
        }
        if (type.isRecord()) {
            return instance(type);
        }
        if (type.isArray()) {
            return Array.newInstance(type.getComponentType(), 0);
        }
        return null; // anything else: absent
    }
}
