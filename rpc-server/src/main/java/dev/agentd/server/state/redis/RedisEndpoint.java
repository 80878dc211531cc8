package dev.agentd.server.state.redis;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where the fleet's Redis is, parsed from {@code redis://[user:password@]host[:port][/db]}
 * ({@code rediss://} for TLS). A user info without a colon is a password alone (the legacy
 * {@code AUTH password}). {@link #toString()} and every parse error are redacted: the password
 * never leaves this record except to the AUTH command.
 *
 * @param user the ACL user, if any
 * @param password the password, if any (never printed)
 */
public record RedisEndpoint(String host, int port, int db, Optional<String> user, Optional<String> password,
        boolean tls) {
    public static final int DEFAULT_PORT = 6379;
    /** Redis's default {@code databases} setting is 16; larger servers are configured so. */
    private static final int MAX_DB = 1 << 16;
    /** A URL longer than this is not a Redis URL; it is not even scanned. */
    private static final int MAX_URL_CHARS = 2048;
    private static final String SHAPE = "expected redis://[user:password@]host[:port][/db] or rediss://…";

    public RedisEndpoint {
        user = user == null ? Optional.empty() : user;
        password = password == null ? Optional.empty() : password;
    }

    /**
     * Parses {@code url}.
     *
     * @throws IllegalArgumentException with a message that never contains the URL's user info
     */
    public static RedisEndpoint parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("no Redis URL given; " + SHAPE);
        }
        if (url.length() > MAX_URL_CHARS) {
            throw new IllegalArgumentException("the Redis URL is longer than " + MAX_URL_CHARS + " characters");
        }
        String text = url.strip();
        boolean tls;
        String rest;
        if (text.startsWith("redis://")) {
            tls = false;
            rest = text.substring("redis://".length());
        } else if (text.startsWith("rediss://")) {
            tls = true;
            rest = text.substring("rediss://".length());
        } else {
            throw new IllegalArgumentException("the Redis URL has an unknown scheme (the value is not shown: it may "
                    + "hold a password); " + SHAPE);
        }
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        int at = authority.lastIndexOf('@');
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        if (at >= 0) {
            String info = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = info.indexOf(':');
            String rawUser = colon < 0 ? "" : info.substring(0, colon);
            String rawPassword = colon < 0 ? info : info.substring(colon + 1);
            user = rawUser.isEmpty() ? Optional.empty() : Optional.of(decode(rawUser, "user name"));
            password = rawPassword.isEmpty() ? Optional.empty() : Optional.of(decode(rawPassword, "password"));
        }
        // Everything past the user info is shown in errors from here on: it holds no secret.
        String host;
        String portText;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("the Redis URL's IPv6 host lacks its ']'; " + SHAPE);
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new IllegalArgumentException("unexpected text after the Redis URL's IPv6 host; " + SHAPE);
            }
            portText = after.isEmpty() ? "" : after.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            portText = colon < 0 ? "" : authority.substring(colon + 1);
        }
        if (host.isEmpty() || !isHostText(host)) {
            throw new IllegalArgumentException("the Redis URL has no valid host; " + SHAPE);
        }
        int port = portText.isEmpty() ? DEFAULT_PORT : number(portText, 1, 65535, "port");
        if (path.contains("?") || path.contains("#")) {
            throw new IllegalArgumentException("the Redis URL's query or fragment is not supported; " + SHAPE);
        }
        int db = path.isEmpty() ? 0 : number(path, 0, MAX_DB, "database number");
        return new RedisEndpoint(host, port, db, user, password, tls);
    }

    /** The URL with the password replaced by {@code ***}: what logs, errors and status show. */
    public String redacted() {
        String info = "";
        if (user.isPresent() || password.isPresent()) {
            info = user.orElse("") + (password.isPresent() ? ":***" : "") + "@";
        }
        String shownHost = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return (tls ? "rediss://" : "redis://") + info + shownHost + ":" + port + "/" + db;
    }

    @Override
    public String toString() {
        return redacted();
    }

    private static boolean isHostText(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '-' || c == '_' || c == ':' || c == '%';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static int number(String text, int min, int max, String what) {
        if (text.isEmpty() || text.length() > 6) {
            throw new IllegalArgumentException("the Redis URL's " + what + " is not a number between " + min + " and "
                    + max);
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("the Redis URL's " + what + " is not a number between " + min
                        + " and " + max);
            }
            value = value * 10 + (c - '0');
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("the Redis URL's " + what + " is not a number between " + min + " and "
                    + max);
        }
        return value;
    }

    /** Percent-decoding (so a password may hold '@' or ':'); the error names only the part. */
    private static String decode(String text, String what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b == '%') {
                int hi = i + 2 < bytes.length ? Character.digit(bytes[i + 1], 16) : -1;
                int lo = i + 2 < bytes.length ? Character.digit(bytes[i + 2], 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("the Redis URL's " + what + " has a bad %-escape (the value is "
                            + "not shown)");
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(b);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
