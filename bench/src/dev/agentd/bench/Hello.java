package dev.agentd.bench;

/**
 * The start-up floor: a JVM that prints "hi" and exits (PeerBench times spawn → that line). Quoted, so
 * the line is JSON like every line PeerBench's reader parses.
 */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) {
        System.out.println("\"hi\"");
    }
}
