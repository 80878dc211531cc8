package dev.agentd.bench;

/** The start-up floor: a JVM that prints one line and exits (PeerBench times spawn → "hi"). */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) {
        System.out.println("hi");
    }
}
