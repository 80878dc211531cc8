package dev.agentd.examples.chat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Raw key input on the controlling terminal through {@code stty} (no JNI, no library): canonical
 * mode and echo off, so Esc arrives the moment it is pressed. {@link #close} restores the saved
 * mode; a shutdown hook does the same on Ctrl-C.
 */
final class TtyMode implements AutoCloseable {
    private final String saved;
    private final Thread restoreOnExit;
    private boolean restored;

    private TtyMode(String saved) {
        this.saved = saved;
        this.restoreOnExit = new Thread(this::restore, "tty-restore");
        Runtime.getRuntime().addShutdownHook(restoreOnExit);
    }

    /** Switches the tty to raw input; empty when there is no tty or stty fails (use line mode then). */
    static Optional<TtyMode> enterRaw() {
        try {
            String saved = stty("-g").strip();
            if (saved.isEmpty()) {
                return Optional.empty();
            }
            stty("-icanon -echo min 1 time 0");
            return Optional.of(new TtyMode(saved));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        restore();
        try {
            Runtime.getRuntime().removeShutdownHook(restoreOnExit);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or will run; restore() is idempotent.
        }
    }

    private synchronized void restore() {
        if (restored) {
            return;
        }
        restored = true;
        try {
            stty(saved);
        } catch (IOException e) {
            System.err.println("Could not restore the terminal mode (run `stty sane`): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code stty ARGS < /dev/tty} and returns its stdout; fails on a non-zero exit. */
    private static String stty(String args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", "stty " + args + " < /dev/tty")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException("stty " + args + " failed");
        }
        return output;
    }
}
