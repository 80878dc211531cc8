package dev.agentd.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, from a resource filtered by Maven. */
public final class Version {
    private static final String VERSION = load();

    private Version() {}

    public static String current() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/agentd-version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
