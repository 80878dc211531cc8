package dev.agentd.server.state.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One RESP2 connection: the handful of commands agentd needs (AUTH, SELECT, PING, EVALSHA/EVAL,
 * SCRIPT LOAD, and whatever tests send). Every call has a deadline on the monotonic clock: before
 * each read of the socket the remaining time becomes the read timeout, so a server that drips
 * bytes cannot stretch a call past its deadline. Not thread-safe: {@link RedisConnections} lends each
 * connection to one caller at a time. A connection that saw an I/O or protocol error is unusable.
 */
final class RespConnection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final RespReader reader;
    private final DeadlineInput deadline;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.deadline = new DeadlineInput(socket);
        this.reader = new RespReader(new BufferedInputStream(deadline, 8192));
    }

    /**
     * Connects within {@code connectTimeoutMs} (TCP, TLS handshake) and authenticates and selects
     * the database within {@code commandTimeoutMs}.
     *
     * @throws RedisRefusedException when the server answers AUTH or SELECT with an error
     */
    static RespConnection open(RedisEndpoint endpoint, long connectTimeoutMs, long commandTimeoutMs)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) connectTimeoutMs);
            if (endpoint.tls()) {
                SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                        .createSocket(socket, endpoint.host(), endpoint.port(), true);
                SSLParameters params = tls.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS"); // check the host name, not just the chain
                tls.setSSLParameters(params);
                tls.setSoTimeout((int) connectTimeoutMs);
                tls.startHandshake();
                socket = tls;
            }
            RespConnection connection = new RespConnection(socket);
            long until = System.nanoTime() + commandTimeoutMs * 1_000_000L;
            Optional<String> password = endpoint.password();
            if (password.isPresent()) {
                List<String> auth = new ArrayList<>();
                auth.add("AUTH");
                endpoint.user().ifPresent(auth::add);
                auth.add(password.get());
                connection.expectOk(connection.call(until, auth.toArray(String[]::new)), "AUTH");
            }
            if (endpoint.db() != 0) {
                connection.expectOk(connection.call(until, "SELECT", Integer.toString(endpoint.db())), "SELECT");
            }
            return connection;
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /** Sends one command and reads its reply by {@code deadlineNanos} ({@link System#nanoTime()}). */
    Reply call(long deadlineNanos, String... args) throws IOException {
        out.write(encode(args));
        out.flush();
        deadline.until = deadlineNanos;
        return reader.read();
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private void expectOk(Reply reply, String command) throws RedisRefusedException {
        if (reply instanceof Reply.Error error) {
            // Only the error's code: the rest of an AUTH error is the server's, but keep it short.
            throw new RedisRefusedException(command + " refused (" + error.code() + ")");
        }
    }

    /** A RESP array of bulk strings. */
    static byte[] encode(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        bytes.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] data = arg.getBytes(StandardCharsets.UTF_8);
            bytes.writeBytes(("$" + data.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(data);
            bytes.writeBytes(new byte[] {'\r', '\n'});
        }
        return bytes.toByteArray();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }

    /** The socket's input with the call's remaining time as the read timeout of every read. */
    private static final class DeadlineInput extends InputStream {
        private final Socket socket;
        private final InputStream in;
        private long until;

        DeadlineInput(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            long leftMs = (until - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                throw new SocketTimeoutException("Redis command timed out");
            }
            socket.setSoTimeout((int) Math.min(leftMs, Integer.MAX_VALUE));
            return in.read(b, off, len);
        }
    }
}
