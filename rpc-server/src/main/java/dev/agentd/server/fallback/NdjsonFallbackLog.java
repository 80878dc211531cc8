package dev.agentd.server.fallback;

import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FallbackLog} as NDJSON in {@code <agentDir>/logs/fallback.log}: one scrubbed JSON object
 * per line. The directory is created 0700 and the file 0600 (POSIX file systems; both set when
 * created, since the records describe the user's providers). Before a line would take the file
 * past {@code maxBytes} the file is renamed to {@code fallback.log.1} (replacing the previous one)
 * and a fresh file started. Writes are synchronous and synchronized; any failure is swallowed and
 * the first one reported once on stderr through slf4j.
 *
 * <p>Nothing is written through a link or into a special file: a {@code logs} directory or a
 * {@code fallback.log} that is a symbolic link, a FIFO (whose opening would block the run thread)
 * or a device is refused like any write failure (one warning, no record), and the file is opened
 * with {@code O_NOFOLLOW}.
 */
public final class NdjsonFallbackLog implements FallbackLog {
    private static final Logger LOG = LoggerFactory.getLogger(NdjsonFallbackLog.class);
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path dir;
    private final Path file;
    private final Path rotated;
    private final long maxBytes;
    private final Clock clock;
    private final boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private final AtomicBoolean reported = new AtomicBoolean();

    /** @param clock wall clock for the {@code ts} field only */
    public NdjsonFallbackLog(Path agentDir, long maxBytes, Clock clock) {
        this.dir = agentDir.resolve("logs");
        this.file = dir.resolve("fallback.log");
        this.rotated = dir.resolve("fallback.log.1");
        this.maxBytes = Math.max(1, maxBytes);
        this.clock = clock;
    }

    public Path file() {
        return file;
    }

    @Override
    public void write(Level level, String event, Map<String, ?> data) {
        try {
            String ts = Instant.now(clock).toString();
            byte[] line = (Json.mapper().writeValueAsString(LogScrubber.record(ts, level.wire(), event, data)) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            append(line);
        } catch (IOException | RuntimeException failure) {
            if (reported.compareAndSet(false, true)) {
                LOG.warn("Unable to write the fallback log {}: {} (further failures are not reported)", file,
                        failure.getClass().getSimpleName() + ": " + LogScrubber.text(String.valueOf(failure.getMessage())));
            }
        }
    }

    private synchronized void append(byte[] line) throws IOException {
        ensureDirectory();
        refuseSpecial(file);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) + line.length > maxBytes) {
            Files.move(file, rotated, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            try {
                if (posix) {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
                    Files.setPosixFilePermissions(file, FILE_MODE); // the umask cannot widen it, but be exact
                } else {
                    Files.createFile(file);
                }
            } catch (FileAlreadyExistsException raced) {
                // another daemon on the same agent directory created it first: append to theirs
            }
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS)) {
            out.write(line);
        }
    }

    private static void refuseSpecial(Path path) throws IOException {
        Optional<String> refusal = OwnFiles.refusalNoFollow(path);
        if (refusal.isPresent()) {
            throw new IOException("cannot write " + path + ": " + refusal.get());
        }
    }

    private void ensureDirectory() throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new IOException(dir + " is a symbolic link; not writing through it");
        }
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.createDirectories(dir.getParent());
        if (posix) {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            Files.setPosixFilePermissions(dir, DIR_MODE);
        } else {
            Files.createDirectory(dir);
        }
    }
}
