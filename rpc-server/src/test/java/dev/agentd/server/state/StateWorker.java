package dev.agentd.server.state;

import java.nio.file.Path;

/**
 * A second process for {@link FileStateConcurrencyTest}: opens one circuit and blocks credentials
 * through its own {@link FileState}. Arguments: file, name, count.
 */
public final class StateWorker {
    private StateWorker() {}

    public static void main(String[] args) {
        FileState state = new FileState(Path.of(args[0]), System::currentTimeMillis);
        FileStateConcurrencyTest.hammer(state, args[1], Integer.parseInt(args[2]));
        System.out.println("done");
    }

}
