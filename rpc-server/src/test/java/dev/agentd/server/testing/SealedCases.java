package dev.agentd.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cases of a sealed interface, for tests that a dispatch over it handles or deliberately
 * ignores every one (a sealed type cannot be extended by a test to show the unknown case).
 */
public final class SealedCases {
    private SealedCases() {}

    /** The simple names of the permitted subclasses of {@code sealed}, sorted. */
    public static Set<String> names(Class<?> sealed) {
        Set<String> names = new TreeSet<>();
        for (Class<?> type : permitted(sealed)) {
            names.add(type.getSimpleName());
        }
        return names;
    }

    public static List<Class<?>> permitted(Class<?> sealed) {
        if (!sealed.isSealed()) {
            throw new IllegalArgumentException(sealed + " is not sealed");
        }
        return Arrays.asList(sealed.getPermittedSubclasses());
    }

    /**
     * One instance of each permitted record of {@code sealed}, built with plain values: empty
     * strings, lists and objects, zeros, false, null for anything else.
     */
    public static <T> List<T> instances(Class<T> sealed) throws ReflectiveOperationException {
        List<T> out = new ArrayList<>();
        for (Class<?> type : permitted(sealed)) {
            RecordComponent[] components = type.getRecordComponents();
            if (components == null) {
                throw new IllegalArgumentException(type + " is not a record");
            }
            Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            Object[] args = Arrays.stream(types).map(SealedCases::plain).toArray();
            out.add(sealed.cast(canonical.newInstance(args)));
        }
        return out;
    }

    private static Object plain(Class<?> type) {
        Map<Class<?>, Object> values = Map.of(boolean.class, false, int.class, 0, long.class, 0L, double.class, 0.0,
                Boolean.class, false, Integer.class, 0, Long.class, 0L, String.class, "", List.class, List.of());
        if (values.containsKey(type)) {
            return values.get(type);
        }
        if (type == ObjectNode.class || type == JsonNode.class) {
            return JsonNodeFactory.instance.objectNode();
        }
        return null;
    }
}
