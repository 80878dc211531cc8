package dev.agentd.server.sessionfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** N4, N17: a session list reads a bounded head and tail of each file and names each file once. */
class SessionSummaryTest {
    private static final long BIG = 50L * 1024 * 1024;
    @TempDir
    Path dir;

    private static String header(String id) {
        return "{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"2026-01-01T00:00:00Z\","
                + "\"cwd\":\"/work\"}\n";
    }

    private static String info(String name) {
        return "{\"type\":\"session_info\",\"id\":\"a1b2c3d4\",\"parentId\":null,\"timestamp\":\"t\",\"name\":\""
                + name + "\"}\n";
    }

    /** A header, {@code garbage} bytes that are no JSON at all, then {@code tail}. */
    private Path bigFile(String name, String head, long garbage, String tail) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, head);
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.setLength(head.length() + garbage); // sparse zeros: a 50 MB remainder without writing it
            raw.seek(head.length() + garbage);
            raw.write(tail.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** Counts every byte read through the channels it opens. */
    private static final class Counting implements SessionSummary.Opener {
        final AtomicLong bytes = new AtomicLong();

        @Override
        public SeekableByteChannel open(Path file) throws IOException {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            return new SeekableByteChannel() {
                @Override
                public int read(ByteBuffer dst) throws IOException {
                    int n = channel.read(dst);
                    bytes.addAndGet(Math.max(0, n));
                    return n;
                }

                @Override
                public int write(ByteBuffer src) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public long position() throws IOException {
                    return channel.position();
                }

                @Override
                public SeekableByteChannel position(long newPosition) throws IOException {
                    channel.position(newPosition);
                    return this;
                }

                @Override
                public long size() throws IOException {
                    return channel.size();
                }

                @Override
                public SeekableByteChannel truncate(long size) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public boolean isOpen() {
                    return channel.isOpen();
                }

                @Override
                public void close() throws IOException {
                    channel.close();
                }
            };
        }
    }

    @Test
    void aBigFileIsListedFromItsHeadAndTailOnly() throws IOException {
        Path file = bigFile("big.jsonl", header("big-id") + info("early name"), BIG, "\n" + info("late name"));
        Counting counting = new Counting();
        SessionSummary summary = SessionSummary.read(file, counting);
        assertEquals("big-id", summary.id());
        assertEquals("/work", summary.cwd());
        assertEquals("late name", summary.name(), "the latest name in the windows wins");
        assertEquals(Files.size(file), summary.size());
        assertTrue(counting.bytes.get() <= 2L * SessionSummary.WINDOW,
                "read " + counting.bytes.get() + " bytes of a " + Files.size(file) + "-byte file");
    }

    @Test
    void aNameNearTheStartIsFoundAndGarbageInTheTailIsIgnored() throws IOException {
        Path file = bigFile("early.jsonl", header("e") + info("named early"), BIG, "{torn");
        assertEquals("named early", SessionSummary.read(file).name());
        Path small = dir.resolve("small.jsonl");
        Files.writeString(small, header("s"));
        assertNull(SessionSummary.read(small).name());
    }

    @Test
    void filesWithoutAHeaderInTheFirstWindowAreRefused() throws IOException {
        Path endless = bigFile("endless.jsonl", "{\"type\":\"session\",\"id\":\"", BIG, "\"}\n");
        assertThrows(IOException.class, () -> SessionSummary.read(endless));
        Path notSession = dir.resolve("other.jsonl");
        Files.writeString(notSession, "{\"type\":\"message\"}\n");
        assertThrows(IOException.class, () -> SessionSummary.read(notSession));
        Path empty = Files.createFile(dir.resolve("empty.jsonl"));
        assertThrows(IOException.class, () -> SessionSummary.read(empty));
    }

    @Test
    void filesSharingAHeaderIdAreListedUnderDistinctIdsEachResolvingToItsFile() throws IOException {
        Path first = dir.resolve("2026-01-01_a.jsonl");
        Path copy = dir.resolve("2026-01-02_b.jsonl");
        Path alone = dir.resolve("2026-01-03_c.jsonl");
        Files.writeString(first, header("same"));
        Files.writeString(copy, header("same"));
        Files.writeString(alone, header("unique"));
        Files.setLastModifiedTime(first, FileTime.fromMillis(1_000));
        Files.setLastModifiedTime(copy, FileTime.fromMillis(2_000));
        Files.setLastModifiedTime(alone, FileTime.fromMillis(3_000));
        List<SessionListing.Listed> listing = SessionListing.of(dir);
        assertEquals(List.of("unique", "same@2026-01-02_b", "same@2026-01-01_a"),
                listing.stream().map(SessionListing.Listed::sessionId).toList(), "newest first");
        Set<Path> resolved = listing.stream()
                .map(entry -> SessionListing.resolve(listing, entry.sessionId()).orElseThrow().summary().file())
                .collect(Collectors.toSet());
        assertEquals(Set.of(first, copy, alone), resolved, "each id loads its own file");
        assertTrue(SessionListing.resolve(listing, "same").isEmpty(), "a shared header id names no one file");
        assertEquals(listing, SessionListing.of(dir), "the ids are stable");
        assertNotEquals(listing.get(1).sessionId(), listing.get(2).sessionId());
    }

    @Test
    void aFiftyMegabyteSessionIsListed() throws IOException {
        bigFile("big.jsonl", header("big-id"), BIG, "\n");
        assertEquals(List.of("big-id"), SessionListing.of(dir).stream().map(SessionListing.Listed::sessionId).toList());
    }

    @Test
    void everyWorkingDirectorysSessionsAreListedTogetherNewestFirst() throws IOException {
        SessionPaths paths = new SessionPaths(dir.resolve("sessions"));
        assertEquals(List.of(), SessionListing.of(paths.allDirectories()), "no root yet: nothing stored");
        Path here = Files.createDirectories(paths.directoryFor(Path.of("/work/here"))).resolve("a.jsonl");
        Path there = Files.createDirectories(paths.directoryFor(Path.of("/work/there"))).resolve("b.jsonl");
        Files.createDirectories(paths.sessionsRoot().resolve("not-a-session-dir"));
        Files.writeString(here, header("here-id"));
        Files.writeString(there, header("there-id"));
        Files.setLastModifiedTime(here, FileTime.fromMillis(1_000));
        Files.setLastModifiedTime(there, FileTime.fromMillis(2_000));
        assertEquals(List.of("there-id", "here-id"), SessionListing.of(paths.allDirectories()).stream()
                .map(SessionListing.Listed::sessionId).toList());
        assertEquals(List.of(dir), SessionPaths.flat(dir).allDirectories(), "--session-dir: the one directory");
    }

    @Test
    void theFirstUserMessageIsReadFromTheHead() throws IOException {
        Path file = dir.resolve("s.jsonl");
        Files.writeString(file, header("s") + "{\"type\":\"model_change\",\"id\":\"m\",\"provider\":\"faux\"}\n"
                + "{\"type\":\"message\",\"id\":\"u1\",\"message\":{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"why does \\\"user\\\" fail?\"}]}}\n"
                + "{\"type\":\"message\",\"id\":\"u2\",\"message\":{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"second\"}]}}\n");
        assertEquals("why does \"user\" fail?", SessionSummary.read(file).firstMessage());
        Path none = dir.resolve("none.jsonl");
        Files.writeString(none, header("n"));
        assertNull(SessionSummary.read(none).firstMessage());
    }
}
