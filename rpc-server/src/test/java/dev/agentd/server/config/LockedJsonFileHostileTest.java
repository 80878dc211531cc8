package dev.agentd.server.config;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LockedJsonFile} in a hostile agent directory: a FIFO or a symbolic link as the lock file
 * (N11), temp files left by writers killed mid-write (N12), an oversized file (N14). Each case
 * that could hang has a generous ceiling, so a regression fails instead of hanging the build.
 */
class LockedJsonFileHostileTest {
    private static final Duration CEILING = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    static boolean mkfifo(Path path) {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void aFifoAsTheLockFileIsReplacedNotOpenedForever() throws Exception {
        Path path = dir.resolve("circuits.json");
        Path lock = dir.resolve("circuits.json.lock");
        assumeTrue(mkfifo(lock), "mkfifo is not available");
        LockedJsonFile file = new LockedJsonFile(path);
        assertTimeoutPreemptively(CEILING, () -> file.update(root -> root.put("k", 1)));
        assertTrue(Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS), "the FIFO was replaced");
        assertEquals(1, file.read().path("k").intValue());
    }

    @Test
    void aSymlinkAsTheLockFileIsReplacedItsTargetUntouched() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Path lock = dir.resolve("state.json.lock");
        Files.createSymbolicLink(lock, victim);
        LockedJsonFile file = new LockedJsonFile(dir.resolve("state.json"));
        assertTimeoutPreemptively(CEILING, () -> file.update(root -> root.put("k", 1)));
        assertFalse(Files.isSymbolicLink(lock));
        assertEquals("keep me", Files.readString(victim));
    }

    @Test
    void tempFilesOfDeadWritersAreSweptOthersKept() throws Exception {
        Path path = dir.resolve("circuits.json");
        Path dead1 = Files.writeString(dir.resolve("circuits.json.8123377.tmp"), "");
        Path dead2 = Files.writeString(dir.resolve("circuits.json.x.tmp"), "{\"half");
        Path unrelated = Files.writeString(dir.resolve("settings.json.42.tmp"), "");
        Path notATemp = Files.writeString(dir.resolve("circuits.json.tmp"), "");
        new LockedJsonFile(path).update(root -> root.put("k", 1));
        assertFalse(Files.exists(dead1));
        assertFalse(Files.exists(dead2));
        assertTrue(Files.exists(unrelated), "another file's temps are its own writer's business");
        assertTrue(Files.exists(notATemp));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.filter(p -> p.getFileName().toString().matches("circuits\\.json\\..+\\.tmp")).count());
        }
    }

    /**
     * The sweep runs under the lock, and a writer's temp only exists while it holds the lock: a
     * second writer waiting for the lock never removes the temp of the one holding it.
     */
    @Test
    void theTempOfTheWriterHoldingTheLockIsNeverSwept() throws Exception {
        Path path = dir.resolve("circuits.json");
        Path inProgress = dir.resolve("circuits.json.holder.tmp");
        LockedJsonFile holder = new LockedJsonFile(path);
        LockedJsonFile waiter = new LockedJsonFile(path);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
            try {
                holder.update(root -> {
                    try {
                        Files.writeString(inProgress, "{\"being\":\"written\"}"); // as writeAtomically would
                        holding.countDown();
                        finish.await(30, TimeUnit.SECONDS);
                        Files.delete(inProgress); // renamed into place, in the real writer
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(holding.await(30, TimeUnit.SECONDS));
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
            try {
                waiter.update(root -> root.put("second", true));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        await().until(holder::lockWaitedFor);
        assertTrue(Files.exists(inProgress), "the waiting writer has not touched the holder's temp");
        finish.countDown();
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);
        assertTrue(holder.read().path("second").booleanValue());
    }

    @Test
    void aFileOverTheSizeBoundIsRefusedUnreadOrReplaced() throws Exception {
        Path path = dir.resolve("circuits.json");
        Files.writeString(path, "{\"pad\":\"" + "x".repeat(2000) + "\"}");
        assertEquals(1, new LockedJsonFile(path).read().size(), "unbounded by default (settings.json)");
        LockedJsonFile bounded = new LockedJsonFile(path, 1000);
        assertThrows(LockedJsonFile.TooLargeException.class, bounded::read);
        assertThrows(LockedJsonFile.TooLargeException.class, () -> bounded.update(root -> root.put("k", 1)));
        IOException[] reported = new IOException[1];
        bounded.updateReplacingUnreadable(root -> root.put("k", 1), e -> reported[0] = e);
        assertTrue(reported[0] instanceof LockedJsonFile.TooLargeException);
        assertEquals(1, bounded.read().path("k").intValue());
    }
}
