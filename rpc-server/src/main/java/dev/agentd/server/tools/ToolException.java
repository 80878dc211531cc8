package dev.agentd.server.tools;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * An expected tool failure whose message is written for the model (bad arguments, missing file…).
 * {@link BaseTool} turns it into an error result; anything else is a bug and propagates.
 */
public class ToolException extends RuntimeException {

    public ToolException(String message) {
        super(message);
    }

    /** Describes a file-system failure on {@code path} (as the model named it) in plain words. */
    public static ToolException io(String path, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new ToolException("File not found: " + path);
        }
        if (e instanceof AccessDeniedException) {
            return new ToolException("Permission denied: " + path);
        }
        if (e instanceof NotDirectoryException) {
            return new ToolException("Not a directory: " + path);
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return new ToolException(fse.getReason() + ": " + path);
        }
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new ToolException("I/O error on " + path + ": " + reason);
    }
}
