package dev.agentd.examples.chat;

import java.util.EnumMap;
import java.util.Map;

/**
 * Which action each key runs. Thread-safe: the UI rebinds keys on the event thread while the
 * input thread presses them. Actions run outside the lock, so an action may rebind keys.
 */
public final class KeyBindings {
    private final Map<Key, Runnable> actions = new EnumMap<>(Key.class);

    /** Binds {@code action} to {@code key}; returns the action it replaces, or null. */
    public synchronized Runnable bind(Key key, Runnable action) {
        return actions.put(key, action);
    }

    public synchronized void unbind(Key key) {
        actions.remove(key);
    }

    /** The action bound to {@code key}, or null. */
    public synchronized Runnable binding(Key key) {
        return actions.get(key);
    }

    /** Runs the action bound to {@code key}; returns false when the key is unbound. */
    public boolean press(Key key) {
        Runnable action = binding(key);
        if (action == null) {
            return false;
        }
        action.run();
        return true;
    }
}
