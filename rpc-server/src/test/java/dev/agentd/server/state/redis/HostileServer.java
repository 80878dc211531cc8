package dev.agentd.server.state.redis;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP server that speaks no proper Redis: it accepts and then runs {@code behaviour}
 * on each connection (never answer, drip bytes, send garbage). Stops with {@link #close()}.
 */
final class HostileServer implements AutoCloseable {
    interface Behaviour {
        void serve(Socket socket, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread thread;

    HostileServer(Behaviour behaviour) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    synchronized (sockets) {
                        sockets.add(socket);
                    }
                    Thread serving = new Thread(() -> {
                        try {
                            behaviour.serve(socket, socket.getOutputStream());
                        } catch (IOException | InterruptedException ignored) {
                            // the client went away or the test ended
                        }
                    }, "hostile-redis-conn");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "hostile-redis");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (sockets) {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }
}
