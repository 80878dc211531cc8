package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileState}: the contract through {@code circuits.json}, and how it survives a bad file. */
class FileStateTest extends SharedStateContract {
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("agent").resolve(FileState.FILE_NAME);
    }

    @Override
    protected SharedState newState(LongSupplier clock) {
        return new FileState(file(), clock);
    }

    @Override
    protected SharedState newPeer(LongSupplier clock) {
        return new FileState(file(), clock); // another process's handle: shares nothing but the file
    }

    @Test
    void theFileIsPrivateJsonInEpochMillisAndHoldsNoKey() throws Exception {
        state.circuits().open("p/m", OptionalLong.of(2000), TIMINGS);
        state.credentialBlocks().block(CredentialIds.of("beta", "sk-file-secret-Zq81"), 5000);
        String text = Files.readString(file());
        JsonNode root = Json.mapper().readTree(text);
        assertEquals(now.get() + 2000, root.path("circuits").path("p/m").path("openUntil").longValue());
        assertEquals(1, root.path("circuits").path("p/m").path("consecutiveOpens").intValue());
        assertFalse(text.contains("sk-file-secret"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
        assertEquals(new StoreStatus("file", true, java.util.Optional.empty()), state.status());
    }

    @Test
    void aCorruptFileIsReplacedNotFatal() throws Exception {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "{\"circuits\": [garbage");
        assertEquals(new Admission.Closed(), state.circuits().admit("p/m", "a:turn", TIMINGS));
        assertEquals(1000, state.circuits().open("p/m", OptionalLong.empty(), TIMINGS));
        assertTrue(Json.mapper().readTree(Files.readString(file())).path("circuits").has("p/m"));
        assertTrue(state.status().shared());
    }

    @Test
    void entriesOfTheWrongShapeAreDroppedOthersKept() throws Exception {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), """
                {"version":1,"generation":3,"circuits":{"bad/x":{"openUntil":"soon"},
                 "p/m":{"openUntil":%d,"retryFloorUntil":0,"consecutiveOpens":2}},"credentialBlocks":{"k":"x"}}
                """.formatted(now.get() + 700));
        assertEquals(new Admission.Open(700), state.circuits().admit("p/m", "a:turn", TIMINGS));
        assertEquals(new Admission.Closed(), state.circuits().admit("bad/x", "a:turn", TIMINGS));
        assertEquals(3000, state.circuits().open("p/m", OptionalLong.empty(), TIMINGS), "third open: 4000 capped");
    }

    @Test
    void aDirectoryThatCannotHoldTheFileFallsBackToMemoryAndSaysSo() throws Exception {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        FileState broken = new FileState(blocker.resolve("circuits.json"), now::get);
        assertEquals(1000, broken.open("p/m", OptionalLong.empty(), TIMINGS));
        assertInstanceOf(Admission.Open.class, broken.admit("p/m", "a:turn", TIMINGS));
        assertFalse(broken.status().shared());
        assertTrue(broken.status().warning().orElseThrow().contains("this process only"));
        assertEquals(1, broken.list(TIMINGS).size());
    }
}
