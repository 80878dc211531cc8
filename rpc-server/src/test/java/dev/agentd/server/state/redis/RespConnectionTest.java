package dev.agentd.server.state.redis;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The call deadline holds against servers that never finish a reply. */
class RespConnectionTest {
    private static RedisEndpoint at(int port) {
        return new RedisEndpoint("127.0.0.1", port, 0, Optional.empty(), Optional.empty(), false);
    }

    @Test
    void aServerThatNeverAnswersTimesOutAtTheDeadline() throws Exception {
        try (HostileServer silent = new HostileServer((socket, out) -> Thread.sleep(60_000));
                RespConnection connection = RespConnection.open(at(silent.port()), 200, 200)) {
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class,
                    () -> connection.call(System.nanoTime() + 100_000_000L, "PING"));
            // The bound is the deadline (100 ms) plus scheduling; 10 s only guards against a hang.
            assertTrue(System.nanoTime() - start < 10_000_000_000L);
        }
    }

    @Test
    void aServerThatDripsBytesCannotStretchACallPastItsDeadline() throws Exception {
        // One byte of an endless simple string every 20 ms: each read succeeds, the whole never ends.
        try (HostileServer drip = new HostileServer((socket, out) -> {
            out.write('+');
            for (int i = 0; i < 3_000; i++) {
                out.write('a');
                out.flush();
                Thread.sleep(20);
            }
        }); RespConnection connection = RespConnection.open(at(drip.port()), 200, 200)) {
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class,
                    () -> connection.call(System.nanoTime() + 300_000_000L, "PING"));
            assertTrue(System.nanoTime() - start < 10_000_000_000L);
        }
    }

    @Test
    void aWrongPasswordIsRefusedWithoutEchoingIt() throws Exception {
        try (HostileServer refusing = new HostileServer((socket, out) -> {
            socket.getInputStream().read(new byte[256]);
            out.write("-WRONGPASS invalid username-password pair or user is disabled.\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(5_000);
        })) {
            RedisEndpoint endpoint = new RedisEndpoint("127.0.0.1", refusing.port(), 0, Optional.of("u"),
                    Optional.of("hunter2-secret"), false);
            RedisRefusedException e = assertThrows(RedisRefusedException.class,
                    () -> RespConnection.open(endpoint, 200, 1_000));
            assertTrue(e.getMessage().equals("AUTH refused (WRONGPASS)"), e.getMessage());
        }
    }
}
