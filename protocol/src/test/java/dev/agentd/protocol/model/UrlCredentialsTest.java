package dev.agentd.protocol.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** N7, N10: the credentials a URL carries, found and cut without trusting the text. */
class UrlCredentialsTest {
    @Test
    void forDisplayDropsUserInfoQueryAndFragment() {
        assertEquals("http://host:8080/v1", UrlCredentials.forDisplay("http://user:PW@host:8080/v1?key=TOKEN#x"));
        assertEquals("https://api.example.com", UrlCredentials.forDisplay("https://TOKEN@api.example.com"));
        assertEquals("http://host/v1", UrlCredentials.forDisplay("http://u:pa/ss@host/v1"));
        assertEquals("https://api.anthropic.com", UrlCredentials.forDisplay("https://api.anthropic.com"));
        assertEquals("not a url", UrlCredentials.forDisplay("not a url?secret=1"));
        assertEquals(null, UrlCredentials.forDisplay(null));
    }

    @Test
    void secretsAreThePasswordOrTheWholeUserInfoAndEveryQueryValue() {
        assertEquals(List.of("PW", "TOKEN", "a b"), UrlCredentials.secrets("http://user:PW@host/v1?key=TOKEN&x=a b"));
        assertEquals(List.of("a+b", "a b"), UrlCredentials.secrets("http://h/?x=a+b"));
        assertEquals(List.of("ghp_token"), UrlCredentials.secrets("https://ghp_token@github.com/x.git"));
        assertEquals(List.of("s3cret"), UrlCredentials.secrets("redis://:s3cret@127.0.0.1:1/0"));
        assertEquals(List.of("p%40ss", "p@ss"), UrlCredentials.secrets("http://u:p%40ss@h"));
        assertEquals(List.of(), UrlCredentials.secrets("https://api.openai.com/v1"));
    }

    @Test
    void userInfoIsFoundInAnyUrlOfAValue() {
        assertTrue(UrlCredentials.carriesUserInfo("redis://:s3cret@127.0.0.1:1/0"));
        assertTrue(UrlCredentials.carriesUserInfo("mirror http://a.example https://u:p@b.example/x"));
        assertTrue(UrlCredentials.carriesUserInfo("https://token@github.com"));
        assertFalse(UrlCredentials.carriesUserInfo("https://example.com/path?mail=a@b"));
        assertFalse(UrlCredentials.carriesUserInfo("user@host"));
        assertFalse(UrlCredentials.carriesUserInfo("http://@host"));
        assertFalse(UrlCredentials.carriesUserInfo("/usr/bin:/bin"));
        assertFalse(UrlCredentials.carriesUserInfo(null));
    }

    @Test
    void hostileValuesAreScannedInLinearTimeAndOnlyInTheirBoundedPrefix() {
        String many = "://".repeat(1_000_000) + "x@y";
        String late = "x".repeat(UrlCredentials.MAX_SCAN_CHARS) + "http://u:p@h";
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            assertFalse(UrlCredentials.carriesUserInfo(late));
            UrlCredentials.carriesUserInfo(many);
            UrlCredentials.secrets(many + "?" + "a=b&".repeat(1_000_000));
            UrlCredentials.forDisplay(many);
        });
    }
}
