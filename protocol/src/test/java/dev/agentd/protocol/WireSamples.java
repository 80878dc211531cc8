package dev.agentd.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds representative instances of wire records reflectively, so a record added later is covered
 * without touching the tests. Every scalar gets a distinct value (a swapped or renamed field shows up
 * as an inequality); a sealed family gets one of its wire records (in lists: every one of them).
 */
public final class WireSamples {
    private static final int MAX_DEPTH = 8;
    private int counter;

    /** A record with every component filled. */
    public <T> T full(Class<T> type) {
        return type.cast(value(type, 0));
    }

    /**
     * A record whose reference-typed components are all null (optional fields absent); primitives
     * still get sample values.
     */
    public <T> T sparse(Class<T> type) {
        RecordComponent[] components = requireRecord(type).getRecordComponents();
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> raw = components[i].getType();
            args[i] = raw.isPrimitive() ? value(components[i].getGenericType(), 1) : null;
        }
        return type.cast(construct(type, components, args));
    }

    /** The permitted records of a sealed family that carry a {@link WireType}. */
    public static List<Class<?>> wireRecords(Class<?> family) {
        return Arrays.stream(family.getPermittedSubclasses())
                .filter(sub -> sub.isAnnotationPresent(WireType.class))
                .toList();
    }

    private Object value(Type type, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("sample of " + type + " nests too deep");
        }
        int n = ++counter;
        if (type instanceof ParameterizedType parameterized) {
            Class<?> raw = (Class<?>) parameterized.getRawType();
            if (raw == List.class) {
                Type element = parameterized.getActualTypeArguments()[0];
                List<Object> list = new ArrayList<>();
                if (element instanceof Class<?> cls && cls.isSealed()) {
                    for (Class<?> sub : wireRecords(cls)) {
                        list.add(value(sub, depth + 1));
                    }
                } else {
                    list.add(value(element, depth + 1));
                    list.add(value(element, depth + 1));
                }
                return list;
            }
            if (raw == Map.class && parameterized.getActualTypeArguments()[0] == String.class) {
                Type valueType = parameterized.getActualTypeArguments()[1];
                Map<String, Object> map = new LinkedHashMap<>();
                map.put("k" + n + "/a.b:c", value(valueType, depth + 1)); // keys as chain selectors look
                map.put("k" + n + "-2", value(valueType, depth + 1));
                return map;
            }
            throw new IllegalArgumentException("no sample for " + type);
        }
        Class<?> cls = (Class<?>) type;
        if (cls == String.class) {
            return "s" + n + " \u00e9\u2028";
        }
        if (cls == int.class || cls == Integer.class) {
            return n;
        }
        if (cls == long.class || cls == Long.class) {
            return 10_000_000_000L + n;
        }
        if (cls == double.class || cls == Double.class) {
            return n + 0.25;
        }
        if (cls == boolean.class || cls == Boolean.class) {
            return true;
        }
        if (cls == JsonNode.class || cls == ObjectNode.class) {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("k", "v" + n);
            node.putArray("list").add(n).add("x").addObject().put("nested", true);
            return node;
        }
        if (cls.isEnum()) {
            Object[] constants = cls.getEnumConstants();
            return constants[n % constants.length];
        }
        if (cls.isSealed()) {
            List<Class<?>> subs = wireRecords(cls);
            return value(subs.get(n % subs.size()), depth + 1);
        }
        if (cls.isRecord()) {
            RecordComponent[] components = cls.getRecordComponents();
            Object[] args = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                args[i] = value(components[i].getGenericType(), depth + 1);
            }
            return construct(cls, components, args);
        }
        throw new IllegalArgumentException("no sample for " + type + "; teach WireSamples about it");
    }

    private static Class<?> requireRecord(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type + " is not a record");
        }
        return type;
    }

    private static Object construct(Class<?> type, RecordComponent[] components, Object[] args) {
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            Constructor<?> constructor = type.getDeclaredConstructor(types);
            constructor.setAccessible(true);
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("constructing " + type, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("constructing " + type, e);
        }
    }
}
