package dev.agentd.protocol.model;

import com.fasterxml.jackson.databind.util.StdConverter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The credentials a URL can carry — user-info ({@code scheme://user:password@host}) and query
 * values ({@code ?key=TOKEN}) — found without {@link java.net.URI}, which rejects much of what
 * users type. Every scan is linear and looks at a bounded prefix only: the text may come from the
 * environment or a config file.
 */
public final class UrlCredentials {
    /** Longer text is looked at only this far: no URL anyone configures is longer. */
    static final int MAX_SCAN_CHARS = 8192;
    /** The most query values taken as secrets from one URL. */
    private static final int MAX_QUERY_VALUES = 16;

    private UrlCredentials() {}

    /**
     * {@code url} as it may be shown: without user-info, query and fragment
     * ({@code http://u:pw@host/v1?key=t} → {@code http://host/v1}).
     */
    public static String forDisplay(String url) {
        if (url == null) {
            return null;
        }
        String text = url.length() > MAX_SCAN_CHARS ? url.substring(0, MAX_SCAN_CHARS) : url;
        int end = indexOfAny(text, "?#", 0);
        String base = end < 0 ? text : text.substring(0, end);
        int authority = base.indexOf("://");
        if (authority < 0) {
            return base;
        }
        int at = userInfoEnd(base, authority + 3, base.length());
        return at < 0 ? base : base.substring(0, authority + 3) + base.substring(at + 1);
    }

    /** Whether {@code text} contains a URL with user-info anywhere in its first {@value #MAX_SCAN_CHARS} chars. */
    public static boolean carriesUserInfo(String text) {
        if (text == null) {
            return false;
        }
        int limit = Math.min(text.length(), MAX_SCAN_CHARS);
        int from = 0;
        while (from < limit) {
            int scheme = text.indexOf("://", from);
            if (scheme < 0 || scheme >= limit) {
                return false;
            }
            // Scan up to the next whitespace, ? or #, then go on after it: each char is looked at once or twice.
            int stop = scheme + 3;
            boolean at = false;
            for (; stop < limit; stop++) {
                char c = text.charAt(stop);
                if (c == '?' || c == '#' || c <= ' ') {
                    break;
                }
                at |= c == '@' && stop > scheme + 3;
            }
            if (at) {
                return true;
            }
            from = stop + 1;
        }
        return false;
    }

    /**
     * The secret parts of {@code url}: the user-info's password (or the whole user-info when it has
     * none: a token as user name), and every query value, raw and URL-decoded. Short or empty parts
     * are returned too; the caller decides what is too short to redact.
     */
    public static List<String> secrets(String url) {
        List<String> secrets = new ArrayList<>();
        if (url == null) {
            return secrets;
        }
        int limit = Math.min(url.length(), MAX_SCAN_CHARS);
        int scheme = url.indexOf("://");
        if (scheme >= 0 && scheme < limit) {
            int end = userInfoEnd(url, scheme + 3, limit);
            if (end > scheme + 3) {
                String userInfo = url.substring(scheme + 3, end);
                int colon = userInfo.indexOf(':');
                addDecoded(secrets, colon < 0 ? userInfo : userInfo.substring(colon + 1));
            }
        }
        int query = url.indexOf('?');
        if (query >= 0 && query < limit) {
            int queryEnd = indexOfAny(url, "#", query);
            String params = url.substring(query + 1, queryEnd < 0 || queryEnd > limit ? limit : queryEnd);
            int taken = 0;
            for (String pair : params.split("&", MAX_QUERY_VALUES + 1)) {
                if (taken++ == MAX_QUERY_VALUES) {
                    break;
                }
                int eq = pair.indexOf('=');
                addDecoded(secrets, eq < 0 ? pair : pair.substring(eq + 1));
            }
        }
        return secrets;
    }

    /**
     * The index of the last {@code @} between {@code from} and the first whitespace, {@code ?} or
     * {@code #} (a password may hold an unescaped {@code /}; a path rarely holds an {@code @}), or -1.
     */
    private static int userInfoEnd(String text, int from, int limit) {
        int at = -1;
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '@') {
                at = i;
            } else if (c == '?' || c == '#' || c <= ' ') {
                break;
            }
        }
        return at;
    }

    private static void addDecoded(List<String> secrets, String part) {
        if (part.isEmpty()) {
            return;
        }
        secrets.add(part);
        try {
            String decoded = URLDecoder.decode(part, StandardCharsets.UTF_8);
            if (!decoded.equals(part)) {
                secrets.add(decoded);
            }
        } catch (IllegalArgumentException e) {
            // a malformed escape: the raw form is what is echoed, and it is already there
        }
    }

    private static int indexOfAny(String text, String chars, int from) {
        for (int i = from; i < text.length(); i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Jackson's hook: {@link Model#baseUrl()} leaves the daemon as {@link #forDisplay}. */
    public static final class Display extends StdConverter<String, String> {
        @Override
        public String convert(String url) {
            return forDisplay(url);
        }
    }
}
