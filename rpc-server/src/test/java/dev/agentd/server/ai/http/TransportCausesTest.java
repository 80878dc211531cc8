package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Issue 17 point 5: a dead provider is named (host:port and why), never with the URL's path or user info. */
class TransportCausesTest {
    private static final URI OLLAMA = URI.create("http://127.0.0.1:11434/v1/chat/completions");

    private static Throwable caused(Throwable outer, Throwable cause) {
        outer.initCause(cause);
        return outer;
    }

    @Test
    void theJdksRefusedConnectionIsCalledThat() {
        assertEquals("connection refused to 127.0.0.1:11434",
                TransportCauses.describe(caused(new ConnectException(), new ClosedChannelException()), OLLAMA));
        assertEquals("connection refused to 127.0.0.1:11434",
                TransportCauses.describe(new ConnectException("Connection refused"), OLLAMA));
    }

    @Test
    void dnsTlsAndTimeoutsAreNamed() {
        URI remote = URI.create("https://user:pw@api.nowhere.example/v1?key=abc");
        assertEquals("DNS lookup failed for api.nowhere.example (api.nowhere.example:443)",
                TransportCauses.describe(caused(new ConnectException(), new UnresolvedAddressException()), remote));
        assertEquals("TLS failure with api.nowhere.example:443: PKIX path building failed",
                TransportCauses.describe(new IOException(new SSLHandshakeException("PKIX path building failed")),
                        remote));
        assertEquals("timeout talking to api.nowhere.example:443: request timed out",
                TransportCauses.describe(new HttpTimeoutException("request timed out"), remote));
    }

    @Test
    void otherFailuresAreLeftToTheGenericDescription() {
        assertNull(TransportCauses.describe(new IOException("connection reset"), OLLAMA));
        assertEquals("127.0.0.1:80", TransportCauses.target(URI.create("http://127.0.0.1/v1")));
    }
}
