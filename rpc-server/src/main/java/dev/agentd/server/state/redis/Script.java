package dev.agentd.server.state.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts, one per read-modify-write (each file's header documents its keys, arguments
 * and arithmetic). Sent as EVALSHA; a server that does not know the digest (restarted, or after
 * SCRIPT FLUSH) answers NOSCRIPT and gets the body once by EVAL, which also caches it.
 */
enum Script {
    OPEN("circuit-open"),
    ADMIT("circuit-admit"),
    RELEASE("circuit-release"),
    CLOSE("circuit-close"),
    LIST("circuit-list"),
    BLOCK("cred-block"),
    BLOCKED("cred-blocked");

    final String body;
    final String sha;

    Script(String name) {
        this.body = load(name + ".lua");
        this.sha = sha1(body);
    }

    private static String load(String file) {
        try (InputStream in = Script.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-1
        }
    }
}
