package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.ai.ThinkingSupport;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.ai.faux.FauxProvider;
import dev.agentd.server.ai.faux.FauxScript;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.auth.SecretResolver;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.session.ModelControl.Source;
import dev.agentd.server.session.ModelControl.Switched;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.tools.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model choice as one published value, and switches that say why (issue 11, F5/F10). */
class ModelControlTest {
    @TempDir
    Path dir;

    /** Every published choice, in order, as the observer saw it (it runs right after publication). */
    private final List<ModelChoice> published = Collections.synchronizedList(new ArrayList<>());
    private final List<Switched> switches = Collections.synchronizedList(new ArrayList<>());
    /** Every effective-level change reported (the source of {@code thinking_level_changed}). */
    private final List<ThinkingLevel> levels = Collections.synchronizedList(new ArrayList<>());
    private ModelControl models;

    private ModelControl control(SettingsStore settings, ThinkingLevel initialThinking) {
        FakeScheduler scheduler = new FakeScheduler();
        SessionContext context = new SessionContext(new ModelRegistry(FauxModels.ALL),
                new ProviderRegistry(List.of(new FauxProvider(new FauxScript(), scheduler, 0))),
                new AuthStore(Map.of(), new SecretResolver(Map.of(), scheduler, SecretResolver.COMMAND_LIMIT_MS),
                        scheduler), settings, scheduler,
                new ToolRegistry(List.of()), () -> "system prompt", dir, null, new Random(1));
        ModelControl.Observer observer = new ModelControl.Observer() {
            @Override
            public void modelChanged(Switched change) {
                assertSame(change.now(), models.choice(), "the observer hears of a choice once it is published");
                switches.add(change);
                published.add(change.now());
            }

            @Override
            public void thinkingChanged(ModelChoice now) {
                assertSame(now, models.choice());
                published.add(now);
            }

            @Override
            public void effectiveThinkingChanged(ThinkingLevel level) {
                assertSame(level, models.choice().effective());
                levels.add(level);
            }
        };
        models = new ModelControl(context, new SessionDefaults(settings), FauxModels.FAUX_1, initialThinking);
        models.addObserver(observer);
        published.add(models.choice());
        return models;
    }

    @Test
    void readersOnlyEverSeeChoicesThatWerePublished() throws Exception {
        ModelControl control = control(SettingsStore.inMemory(), ThinkingLevel.MEDIUM);
        int rounds = 400;
        Set<ModelChoice> seen = ConcurrentHashMap.newKeySet();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writers = List.of(
                    // Automatic switches change the model and the level in one step: (faux-1, high) and
                    // (faux-2, low); any mix of the two (faux-1 with low, faux-2 with high) is torn.
                    pool.submit(() -> {
                        for (int i = 0; i < rounds; i++) {
                            control.switchTo(FauxModels.FAUX_2, ThinkingLevel.LOW, Source.FALLBACK, false);
                            control.switchTo(FauxModels.FAUX_1, ThinkingLevel.HIGH, Source.FALLBACK_REVERT, false);
                        }
                    }),
                    pool.submit(() -> {
                        for (int i = 0; i < rounds; i++) {
                            control.cycle();
                            control.set("faux", "faux-1");
                            control.setThinkingLevel(i % 2 == 0 ? ThinkingLevel.MINIMAL : ThinkingLevel.HIGH);
                        }
                    }));
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    do {
                        seen.add(control.choice());
                    } while (writing.get());
                }));
            }
            await().until(() -> writers.stream().allMatch(Future::isDone));
            writing.set(false);
            await().until(() -> readers.stream().allMatch(Future::isDone));
            for (Future<?> future : List.of(writers.get(0), writers.get(1), readers.get(0), readers.get(1))) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Set<ModelChoice> legal = new HashSet<>(published);
        for (ModelChoice choice : seen) {
            assertTrue(legal.contains(choice), "observed a choice never published: " + choice);
            assertEquals(ThinkingSupport.clamp(choice.model(), choice.preferred()),
                    choice.effective(), "the effective level belongs to the model: " + choice);
        }
        assertEquals(5 * rounds + 1, published.size(), "every write published exactly one choice");
    }

    @Test
    void everyChangeOfTheEffectiveLevelIsReportedOnce() {
        ModelControl control = control(SettingsStore.inMemory(), ThinkingLevel.MEDIUM);
        control.setThinkingLevel(ThinkingLevel.HIGH);
        control.setThinkingLevel(ThinkingLevel.HIGH); // no change, no report
        control.set("faux", "faux-2"); // no reasoning: clamped to off
        control.setThinkingLevel(ThinkingLevel.LOW); // still off on faux-2
        control.set("faux", "faux-1"); // low again
        control.cycleThinkingLevel();
        assertEquals(List.of(ThinkingLevel.HIGH, ThinkingLevel.OFF, ThinkingLevel.LOW, control.thinkingLevel()), levels);
        assertTrue(control.thinkingLevel() != ThinkingLevel.LOW);
    }

    @Test
    void userSwitchesPersistTheDefaultAndAutomaticOnesDoNot() throws Exception {
        Path file = dir.resolve("agent/settings.json");
        ModelControl control = control(new SettingsStore(file, null), ThinkingLevel.HIGH);

        control.set("faux", "faux-2");
        assertEquals("faux-2", defaults(file).path("defaultModel").asText());
        Switched set = switches.get(0);
        assertEquals(Source.SET, set.source());
        assertTrue(set.persisted());
        assertEquals(FauxModels.FAUX_1, set.replaced());
        assertEquals(ThinkingLevel.HIGH, set.now().preferred(), "the asked-for level survives a model without it");
        assertEquals(ThinkingLevel.OFF, set.now().effective());

        String before = Files.readString(file);
        ModelChoice now = control.switchTo(FauxModels.FAUX_1, ThinkingLevel.LOW, Source.FALLBACK, false);
        assertEquals(before, Files.readString(file), "a fallback switch is not the user's default");
        assertEquals(new ModelChoice(FauxModels.FAUX_1, ThinkingLevel.LOW, ThinkingLevel.LOW), now);
        Switched fallback = switches.get(1);
        assertEquals(Source.FALLBACK, fallback.source());
        assertFalse(fallback.persisted());
        assertEquals(FauxModels.FAUX_2, fallback.replaced());
        assertEquals(FauxModels.FAUX_2, fallback.original(), "the first switch of an episode starts from the replaced model");

        control.switchTo(FauxModels.FAUX_2, null, Source.FALLBACK_REVERT, false, FauxModels.FAUX_2);
        Switched revert = switches.get(2);
        assertEquals(FauxModels.FAUX_1, revert.replaced());
        assertEquals(FauxModels.FAUX_2, revert.original());
        assertEquals(ThinkingLevel.LOW, revert.now().preferred(), "null keeps the preferred level");
        assertEquals(before, Files.readString(file));

        assertTrue(control.cycle().isPresent());
        assertEquals(Source.CYCLE, switches.get(3).source());
        assertEquals("faux-1", defaults(file).path("defaultModel").asText(), "cycle_model persists as set_model does");
    }

    @Test
    void restorePublishesTheModelAndItsLevelAtOnce() {
        ModelControl control = control(SettingsStore.inMemory(), ThinkingLevel.OFF);
        control.restore(FauxModels.FAUX_1, ThinkingLevel.HIGH);
        assertTrue(switches.isEmpty(), "the same model is no switch");
        assertEquals(new ModelChoice(FauxModels.FAUX_1, ThinkingLevel.HIGH, ThinkingLevel.HIGH), control.choice());

        control.switchTo(FauxModels.FAUX_2, null, Source.SET, false);
        control.restore(FauxModels.FAUX_1, ThinkingLevel.LOW);
        Switched restore = switches.get(1);
        assertEquals(Source.RESTORE, restore.source());
        assertFalse(restore.persisted());
        assertEquals(new ModelChoice(FauxModels.FAUX_1, ThinkingLevel.LOW, ThinkingLevel.LOW), restore.now(),
                "the event carries the restored level, not the one clamped before it");
    }

    private static JsonNode defaults(Path file) throws Exception {
        return Json.mapper().readTree(Files.readString(file));
    }
}
