package dev.agentd.server.auth;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.testing.FakeScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §2 credential sources and §5.6 rotation. */
class AuthStoreTest {
    @TempDir
    Path dir;
    final FakeScheduler clock = new FakeScheduler();

    /** Key commands time out on the fake clock. */
    private SecretResolver resolver(Map<String, String> env) {
        return new SecretResolver(env, clock, SecretResolver.COMMAND_LIMIT_MS);
    }

    private AuthStore load(String json, Map<String, String> env) throws IOException {
        Path file = dir.resolve("auth.json");
        Files.writeString(file, json);
        return AuthStore.load(file, resolver(env), clock);
    }

    @Test
    void readsOneCredentialOrAnArrayPerProvider() throws IOException {
        AuthStore auth = load("{\"anthropic\":{\"type\":\"api_key\",\"key\":\"sk-one\"},"
                + "\"openai\":[{\"type\":\"api_key\",\"key\":\"a\"},{\"type\":\"api_key\",\"key\":\"b\"}]}", Map.of());
        assertEquals(Optional.of("sk-one"), auth.apiKey("anthropic", "s"));
        // Two openai credentials: the session can move off its first one once, and not again.
        String first = auth.apiKey("openai", "s").orElseThrow();
        assertTrue(auth.markUsageLimitReached("openai", "s", null));
        assertEquals(first.equals("a") ? "b" : "a", auth.apiKey("openai", "s").orElseThrow());
        assertFalse(auth.markUsageLimitReached("openai", "s", null));
        assertTrue(auth.hasCredential("openai"));
        assertFalse(auth.hasCredential("groq"));
    }

    @Test
    void resolutionOrderIsCliThenAuthFileThenEnvironmentThenModelsJson() throws IOException {
        AuthStore auth = load("{\"openai\":{\"type\":\"api_key\",\"key\":\"from-file\"}}",
                Map.of("OPENAI_API_KEY", "from-env", "GROQ_API_KEY", "groq-env"));
        auth.setModelsJsonKey("openai", "from-models");
        auth.setModelsJsonKey("custom", "custom-literal");
        assertEquals(Optional.of("from-file"), auth.apiKey("openai", "s"));
        auth.setCliKey("openai", "from-cli");
        assertEquals(Optional.of("from-cli"), auth.apiKey("openai", "s"));
        assertEquals(Optional.of("groq-env"), auth.apiKey("groq", "s"));
        assertEquals(Optional.of("custom-literal"), auth.apiKey("custom", "s"));
    }

    @Test
    void valuesResolveCommandsAndEnvironmentNames() throws IOException {
        AuthStore auth = load("{\"a\":{\"type\":\"api_key\",\"key\":\"!printf ' cmd-key \\\\n'\"},"
                + "\"b\":{\"type\":\"api_key\",\"key\":\"MY_KEY_VAR\"},"
                + "\"c\":{\"type\":\"api_key\",\"key\":\"!exit 3\"}}", Map.of("MY_KEY_VAR", "env-value"));
        assertEquals(Optional.of("cmd-key"), auth.apiKey("a", "s"));
        assertEquals(Optional.of("env-value"), auth.apiKey("b", "s"));
        assertEquals(Optional.empty(), auth.apiKey("c", "s"));
    }

    @Test
    void selectionIsStickyPerSessionAndStartsAtTheSessionHash() {
        AuthStore auth = new AuthStore(Map.of("p", List.of("k0", "k1", "k2")), resolver(Map.of()), clock);
        String session = "session-x";
        int expected = Integer.remainderUnsigned(AuthStore.fnv1a(session), 3);
        assertEquals(Optional.of("k" + expected), auth.apiKey("p", session));
        assertEquals(Optional.of("k" + expected), auth.apiKey("p", session));
    }

    @Test
    void usageLimitBlocksTheCurrentCredentialUntilTheHintExpires() {
        AuthStore auth = new AuthStore(Map.of("p", List.of("k0", "k1")), resolver(Map.of()), clock);
        String first = auth.apiKey("p", "s").orElseThrow();
        assertTrue(auth.markUsageLimitReached("p", "s", 10_000L));
        String second = auth.apiKey("p", "s").orElseThrow();
        assertFalse(first.equals(second));
        assertFalse(auth.markUsageLimitReached("p", "s", null), "both blocked now");
        clock.advance(10_001);
        assertTrue(auth.markUsageLimitReached("p", "s", null), "the first block expired");
    }

    /** Two processes on one agent directory: a credential one blocked is skipped by the other. */
    @Test
    void blocksGoThroughTheSharedStoreByHashNeverByKey() throws IOException {
        Path file = dir.resolve("circuits.json");
        Map<String, List<String>> stored = Map.of("p", List.of("sk-shared-k0-Vb3", "sk-shared-k1-Wc4"));
        AuthStore one = new AuthStore(stored, resolver(Map.of()), clock);
        one.shareBlocks(new dev.agentd.server.state.FileState(file, clock::now));
        AuthStore two = new AuthStore(stored, resolver(Map.of()), clock);
        two.shareBlocks(new dev.agentd.server.state.FileState(file, clock::now));
        String first = one.apiKey("p", "s").orElseThrow();
        assertEquals(first, two.apiKey("p", "s").orElseThrow(), "the same session id picks the same credential");
        assertTrue(one.markUsageLimitReached("p", "s", 10_000L));
        assertFalse(first.equals(two.apiKey("p", "s").orElseThrow()), "the other store skips the blocked one");
        String text = Files.readString(file);
        assertFalse(text.contains("sk-shared"), text);
        clock.advance(10_001);
        assertTrue(two.otherCredentialFree("p", "s"), "the block ended for both");
    }

    @Test
    void otherCredentialFreeAnswersWithoutBlockingAnything() {
        AuthStore auth = new AuthStore(Map.of("p", List.of("k0", "k1")), resolver(Map.of()), clock);
        assertFalse(auth.otherCredentialFree("p", "s"), "no credential in use yet");
        String first = auth.apiKey("p", "s").orElseThrow();
        assertTrue(auth.otherCredentialFree("p", "s"));
        assertTrue(auth.otherCredentialFree("p", "s"), "asking twice changes nothing");
        assertEquals(first, auth.apiKey("p", "s").orElseThrow(), "nothing was blocked");
        assertTrue(auth.markUsageLimitReached("p", "s", 10_000L));
        assertTrue(auth.otherCredentialFree("p", "s"), "the next request will move to the other one");
        assertFalse(first.equals(auth.apiKey("p", "s").orElseThrow()));
        assertFalse(auth.otherCredentialFree("p", "s"), "the other one is in use now and the first is blocked");
        clock.advance(10_001);
        assertTrue(auth.otherCredentialFree("p", "s"));
        assertFalse(auth.otherCredentialFree("other", "s"));
    }

    @Test
    void aSessionThatUsedNoStoredCredentialCannotRotate() {
        AuthStore auth = new AuthStore(Map.of("p", List.of("k0", "k1")), resolver(Map.of()), clock);
        assertFalse(auth.markUsageLimitReached("p", "never-asked", null));
        assertFalse(auth.markUsageLimitReached("other", "s", null));
    }

    @Test
    void aMalformedAuthFileIsIgnored() throws IOException {
        AuthStore auth = load("{broken", Map.of());
        assertFalse(auth.hasCredential("anthropic"));
    }

    /** The stdin reader asks hasCredential; a run resolving a slow !command must not hold it up. */
    @Test
    void hasCredentialNeverWaitsForACommandBeingResolved() throws Exception {
        Path started = dir.resolve("started");
        Path go = dir.resolve("go");
        String spec = "!touch " + started + "; while [ ! -e " + go + " ]; do sleep 0.05; done; echo sk-unlocked";
        AuthStore auth = new AuthStore(Map.of("p", List.of(spec)), new SecretResolver(Map.of(), clock, 10_000), clock);
        CompletableFuture<Optional<String>> key = CompletableFuture.supplyAsync(() -> auth.apiKey("p", "s"));
        await().until(() -> Files.exists(started));
        CompletableFuture<Boolean> asked = CompletableFuture.supplyAsync(() -> auth.hasCredential("p")
                && !auth.hasCredential("q") && !auth.otherCredentialFree("p", "s"));
        await().until(asked::isDone);
        assertTrue(asked.join());
        assertFalse(key.isDone());
        Files.writeString(go, "");
        assertEquals(Optional.of("sk-unlocked"), key.join());
    }

    /** N9: a failed key command is named with its cause, not as a missing key, and is retried later. */
    @Test
    void aFailedKeyCommandIsNamedAndTriedAgainAfterItsBackoff() throws Exception {
        Path count = dir.resolve("count");
        String spec = "!echo run >> " + count + "; [ $(wc -l < " + count + ") -ge 2 ] || exit 1; echo sk-unlocked-now";
        AuthStore auth = new AuthStore(Map.of(), new SecretResolver(Map.of(), clock, 10_000), clock);
        auth.setModelsJsonKey("adv", spec);
        SecretResolver.Resolution first = auth.key("adv", "s", CancellationToken.none());
        assertEquals(new SecretResolver.Resolution.Failed("The command for adv's key (models.json apiKey) exited with "
                + "status 1; it runs again on the first request after 5 s."), first);
        assertFalse(first.toString().contains("No API key found"));
        clock.advance(CommandBackoff.FIRST_MS);
        assertEquals(Optional.of("sk-unlocked-now"), auth.apiKey("adv", "s"));
    }

    /** N16: every auth.json key is a known secret, not only the one a session uses. */
    @Test
    void everyConfiguredKeyIsRememberedForRedaction() throws IOException {
        AuthStore auth = load("{\"adv\":[\"sk-adv-first-TESTSECRET\",\"ADV_SECOND_VAR\",\"!echo never-run\"]}",
                Map.of("ADV_SECOND_VAR", "sk-adv-second-TESTSECRET"));
        auth.setCliKey("other", "sk-cli-TESTSECRET");
        auth.rememberSecrets();
        assertTrue(KnownSecrets.all().containsAll(List.of("sk-adv-first-TESTSECRET", "sk-adv-second-TESTSECRET",
                "sk-cli-TESTSECRET")), KnownSecrets.all().toString());
        assertFalse(KnownSecrets.all().contains("never-run"), "commands run only when a key is needed");
    }

    /** N9: a failed header command is named too, instead of the request going out without the header. */
    @Test
    void aFailedHeaderCommandIsNamed() {
        AuthStore auth = new AuthStore(Map.of(), new SecretResolver(Map.of(), clock, 10_000), clock);
        auth.setHeaderSpecs("adv", Map.of("x-literal", "plain-value", "x-token", "!exit 4"));
        assertEquals(Optional.of("The command for header x-token of adv exited with status 4; it runs again on the "
                + "first request after 5 s."), auth.headerProblem("adv", CancellationToken.none()));
        assertEquals(Optional.empty(), auth.headerProblem("other", CancellationToken.none()));
        auth.setHeaderSpecs("ok", Map.of("x-token", "!echo sk-header-value"));
        assertEquals(Optional.empty(), auth.headerProblem("ok", CancellationToken.none()));
    }
}
