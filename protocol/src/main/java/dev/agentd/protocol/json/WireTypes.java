package dev.agentd.protocol.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Lookup between records of a sealed wire family and their {@link WireType} names. */
public final class WireTypes {
    private static final ClassValue<String> NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            WireType wire = type.getAnnotation(WireType.class);
            if (wire == null) {
                throw new IllegalStateException(type.getName() + " lacks @WireType");
            }
            return wire.value();
        }
    };

    /** Each family's table, built once: the scan (permitted subclasses, annotations) costs ms at startup. */
    private static final ClassValue<Map<String, Class<?>>> REGISTRIES = new ClassValue<>() {
        @Override
        protected Map<String, Class<?>> computeValue(Class<?> family) {
            return scan(family);
        }
    };

    private WireTypes() {}

    /** The wire name of a record class. */
    public static String nameOf(Class<?> type) {
        return NAMES.get(type);
    }

    /**
     * Name-to-class table for every annotated record permitted by a sealed interface (records
     * without the annotation, such as the "unknown" catch-alls, are left out).
     */
    @SuppressWarnings("unchecked")
    public static <T> Map<String, Class<? extends T>> registry(Class<T> family) {
        return (Map<String, Class<? extends T>>) (Map<String, ?>) REGISTRIES.get(family);
    }

    private static Map<String, Class<?>> scan(Class<?> family) {
        Map<String, Class<?>> table = new LinkedHashMap<>();
        for (Class<?> sub : family.getPermittedSubclasses()) {
            WireType wire = sub.getAnnotation(WireType.class);
            if (wire == null) {
                continue;
            }
            if (table.put(wire.value(), sub.asSubclass(family)) != null) {
                throw new IllegalStateException("duplicate wire name " + wire.value() + " in " + family.getName());
            }
        }
        return Collections.unmodifiableMap(table);
    }
}
