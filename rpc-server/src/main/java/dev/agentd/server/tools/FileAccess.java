package dev.agentd.server.tools;

import dev.agentd.server.runtime.CancellationToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code read}, {@code edit} and {@code write} read and write a text file's content: the
 * disk, or an editor that holds unsaved buffers ({@code --mode acp}). Checks on the path
 * (directory, openable, kind, size) stay on the disk; only the content goes through here.
 */
public interface FileAccess {

    /** The whole content of {@code file}. */
    byte[] read(Path file, CancellationToken cancel) throws IOException;

    /** Replaces the content of {@code file} (creating it and its parent directories). */
    void write(Path file, String content, CancellationToken cancel) throws IOException;

    /** The local file system. */
    FileAccess LOCAL = new FileAccess() {
        @Override
        public byte[] read(Path file, CancellationToken cancel) throws IOException {
            return Files.readAllBytes(file);
        }

        @Override
        public void write(Path file, String content, CancellationToken cancel) throws IOException {
            Path parent = file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        }
    };
}
