package io.github.jsonrpcenvelope;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The constants of one of the library's enums, found by their C ABI value and by the library's name
 * for them (their {@code toString()}): what every enum's {@code of} and {@code named} do.
 */
final class Values<E extends Enum<E>> {
    private final String type;
    private final Object[] byValue;
    private final Map<String, E> byName = new HashMap<>();

    Values(Class<E> type, ToIntFunction<E> value) {
        this.type = type.getSimpleName();
        E[] all = type.getEnumConstants();
        int max = 0;
        for (E e : all) {
            max = Math.max(max, value.applyAsInt(e));
        }
        byValue = new Object[max + 1];
        for (E e : all) {
            byValue[value.applyAsInt(e)] = e;
            if (e.toString() != null) {
                byName.put(e.toString(), e);
            }
        }
    }

    /** The constant of a C ABI value. */
    @SuppressWarnings("unchecked")
    E of(int value) {
        Object e = value >= 0 && value < byValue.length ? byValue[value] : null;
        if (e == null) {
            throw new IllegalArgumentException("no " + type + " has the value " + Integer.toUnsignedString(value));
        }
        return (E) e;
    }

    /** The constant the library names {@code name}. */
    E named(String name) {
        E e = byName.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no " + type + " is named " + name);
        }
        return e;
    }
}
