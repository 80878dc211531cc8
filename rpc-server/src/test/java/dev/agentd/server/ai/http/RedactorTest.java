package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.runtime.KnownSecrets;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactorTest {
    static final String KEY = "sk-TESTSECRET/slash+plus=0010";

    @Test
    void rawUrlEncodedBase64AndJsonEscapedEchoesAreRedacted() {
        Redactor redactor = Redactor.of(KEY, List.of());
        StringBuilder unicode = new StringBuilder();
        KEY.chars().forEach(c -> unicode.append(String.format("\\u%04x", c)));
        List<String> echoes = List.of(KEY, URLEncoder.encode(KEY, StandardCharsets.UTF_8),
                URLEncoder.encode(KEY, StandardCharsets.UTF_8).replace("%2F", "%2f").replace("%2B", "%2b").replace("%3D", "%3d"),
                Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8)),
                Base64.getUrlEncoder().withoutPadding().encodeToString(KEY.getBytes(StandardCharsets.UTF_8)),
                KEY.replace("/", "\\/"), unicode.toString(), unicode.toString().toUpperCase().replace("\\U", "\\u"));
        for (String echo : echoes) {
            String out = redactor.apply("invalid key '" + echo + "' given");
            assertEquals("invalid key '" + Redactor.MARK + "' given", out, echo);
        }
    }

    @Test
    void mixedEscapesAreRedactedToo() {
        Redactor redactor = Redactor.of(KEY, List.of());
        List<String> echoes = List.of("sk-TESTSECRET%2fslash%2Bplus%3d0010", "sk-TESTSECRET\\u002Fslash+plus=0010",
                "%73k-TESTSECRET/slash\\u002bplus%3D0010");
        for (String echo : echoes) {
            assertEquals("a " + Redactor.MARK + " b", redactor.apply("a " + echo + " b"), echo);
        }
        assertEquals("sk-TESTSECRET%2fslash", redactor.apply("sk-TESTSECRET%2fslash"), "a prefix is not the key");
    }

    @Test
    void theEscapeTolerantScanIsLinear() {
        String text = "sk-TESTSECRET%2f".repeat(60_000); // 1 MB of near misses
        long start = System.nanoTime();
        assertEquals(text, Redactor.redactEscaped(text, KEY));
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "quadratic scans take minutes here");
    }

    @Test
    void shortValuesAndOrdinaryTextAreLeftAlone() {
        Redactor redactor = Redactor.of("abc", List.of("true"));
        assertEquals("abc is true", redactor.apply("abc is true"));
        assertFalse(Redactor.of(KEY, List.of()).apply("Unauthorized: check your key").contains(Redactor.MARK));
    }

    /** N16: a key the request does not use (rotated away from, another provider's) is redacted too. */
    @Test
    void everySecretTheProcessKnowsIsRedactedNotOnlyTheRequestsOwn() {
        String rotatedAway = "sk-ant-TESTSECRET-redactor-other-0001";
        KnownSecrets.add(rotatedAway);
        String body = "usage limit reached for " + rotatedAway + " ("
                + Base64.getEncoder().encodeToString(rotatedAway.getBytes(StandardCharsets.UTF_8)) + ")";
        String shown = Redactor.of(KEY, List.of()).apply(body);
        assertFalse(shown.contains("TESTSECRET"), shown);
        assertEquals("usage limit reached for " + Redactor.MARK + " (" + Redactor.MARK + ")", shown);
    }
}
