package dev.agentd.examples.chat;

/** The keys the chat binds actions to (everything else is typing). */
public enum Key {
    ESCAPE
}
