package dev.agentd.server.cli;

import dev.agentd.server.config.ProjectTrust;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code agentd trust [DIR]}: the explicit, recorded step after which a project's
 * {@code .agentd/settings.json} may set keys that widen what runs without asking (SPEC §2). Records
 * the directory's real path in the global settings' {@code trust.projects} and exits; no daemon.
 */
final class TrustCommand {
    private TrustCommand() {}

    /** Records {@code dir} (relative to {@code cwd}); one line on {@code out}, or the problem on {@code err}. */
    static int run(Path dir, Path cwd, Path globalSettings, PrintStream out, PrintStream err) {
        try {
            Path real = ProjectTrust.trust(globalSettings, cwd.resolve(dir));
            out.println("agentd: trusted " + real + " (recorded in 'trust.projects' of " + globalSettings
                    + "): its .agentd/settings.json may now set " + String.join(", ", ProjectTrust.wideningKeys()));
            out.flush();
            return 0;
        } catch (IOException e) {
            err.println("agentd: cannot trust " + dir + ": " + describe(e));
            return 1;
        }
    }

    private static String describe(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such directory" : e.getMessage();
    }
}
