package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.FileAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The editor's files (issue 16 §5): when the client offers {@code fs.readTextFile} /
 * {@code fs.writeTextFile}, {@code read}, {@code edit} and {@code write} read and write through it
 * ({@code fs/read_text_file}, {@code fs/write_text_file}), so unsaved buffers and the editor's undo
 * stay right; otherwise the disk. The wait runs on the tool's thread, and a cancelled run stops it.
 */
final class EditorFiles implements FileAccess {
    private final AcpConnection connection;
    private final Supplier<String> sessionId;
    private final boolean clientReads;
    private final boolean clientWrites;

    EditorFiles(AcpConnection connection, Supplier<String> sessionId, boolean clientReads, boolean clientWrites) {
        this.connection = connection;
        this.sessionId = sessionId;
        this.clientReads = clientReads;
        this.clientWrites = clientWrites;
    }

    @Override
    public byte[] read(Path file, CancellationToken cancel) throws IOException {
        if (!clientReads) {
            return LOCAL.read(file, cancel);
        }
        ObjectNode params = AcpJson.object().put("sessionId", sessionId.get()).put("path", file.toString());
        JsonNode result = call("fs/read_text_file", params, cancel, file);
        String content = AcpJson.textOf(result, "content");
        if (content == null) {
            throw new IOException("the editor sent no content for " + file);
        }
        return content.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void write(Path file, String content, CancellationToken cancel) throws IOException {
        if (!clientWrites) {
            LOCAL.write(file, content, cancel);
            return;
        }
        call("fs/write_text_file", AcpJson.object().put("sessionId", sessionId.get()).put("path", file.toString())
                .put("content", content), cancel, file);
    }

    private JsonNode call(String method, ObjectNode params, CancellationToken cancel, Path file) throws IOException {
        try {
            return connection.call(method, params, cancel);
        } catch (AcpConnection.ClientError e) {
            throw new IOException("the editor refused (" + e.code + "): " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the editor");
        } catch (Exception e) {
            throw new IOException("the editor did not answer for " + file + ": " + e.getClass().getSimpleName());
        }
    }
}
