package dev.agentd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes a benchmark's temporary directory. */
final class Cleanup {
    private Cleanup() {}

    static void delete(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + root + ": " + e.getMessage());
        }
    }
}
