package dev.agentd.server.sessionfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions stored in one directory, from their {@link SessionSummary summaries} only, each
 * under an id that names exactly one file: the header's id when no other file carries it, else
 * {@code <header id>@<file name without .jsonl>} (a copied file keeps its header). The ids are
 * stable while the files are; loading resolves an id against this listing, so a session is loaded
 * by file, never by a header id that several files share.
 */
public final class SessionListing {
    private static final Logger LOG = LoggerFactory.getLogger(SessionListing.class);
    private static final String EXTENSION = ".jsonl";

    /** One listed session: the id a client uses for it and what was read of it. */
    public record Listed(String sessionId, SessionSummary summary) {}

    private SessionListing() {}

    /**
     * The loadable sessions of {@code dir}, newest first; empty when it does not exist. Files that
     * are no session files, or over {@link SessionFile#MAX_LOAD_BYTES}, are left out.
     */
    public static List<Listed> of(Path dir) {
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(file -> file.getFileName().toString().endsWith(EXTENSION)).toList();
        } catch (IOException e) {
            return List.of(); // no directory yet: nothing stored
        }
        List<SessionSummary> summaries = new ArrayList<>();
        for (Path file : files) {
            try {
                SessionSummary summary = SessionSummary.read(file);
                if (summary.size() <= SessionFile.MAX_LOAD_BYTES) {
                    summaries.add(summary);
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("session list: skipping {}: {}", file.getFileName(), e.getClass().getSimpleName());
            }
        }
        return named(summaries);
    }

    /**
     * The loadable sessions of every directory in {@code dirs}, each named within its own
     * directory (a load resolves an id against its working directory's listing), newest first.
     */
    public static List<Listed> of(List<Path> dirs) {
        List<Listed> listed = new ArrayList<>();
        dirs.forEach(dir -> listed.addAll(of(dir)));
        listed.sort(NEWEST_FIRST);
        return List.copyOf(listed);
    }

    private static final Comparator<Listed> NEWEST_FIRST = Comparator
            .comparing((Listed entry) -> entry.summary().modified()).reversed()
            .thenComparing(entry -> entry.summary().file().getFileName().toString());

    /** Gives each summary its listed id; newest first, then by file name. */
    static List<Listed> named(List<SessionSummary> summaries) {
        Map<String, Integer> uses = new HashMap<>();
        summaries.forEach(summary -> uses.merge(summary.id(), 1, Integer::sum));
        List<Listed> listed = new ArrayList<>();
        for (SessionSummary summary : summaries) {
            String name = summary.file().getFileName().toString();
            String stem = name.substring(0, name.length() - EXTENSION.length());
            listed.add(new Listed(uses.get(summary.id()) == 1 ? summary.id() : summary.id() + "@" + stem, summary));
        }
        listed.sort(NEWEST_FIRST);
        return List.copyOf(listed);
    }

    /** The one listed session with {@code sessionId}; empty when none, or (a forged id) several, match. */
    public static java.util.Optional<Listed> resolve(List<Listed> listing, String sessionId) {
        List<Listed> matches = listing.stream().filter(entry -> entry.sessionId().equals(sessionId)).toList();
        return matches.size() == 1 ? java.util.Optional.of(matches.get(0)) : java.util.Optional.empty();
    }
}
