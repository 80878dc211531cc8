package dev.agentd.server.state;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Names a credential for the stores without holding it: HMAC-SHA256 keyed with a fixed domain
 * string over {@code provider + "\0" + key}, in hex. Every agentd computes the same name for the
 * same key (so blocks are shared), and the name is useless for finding the key (the domain key
 * keeps it from matching a plain SHA-256 of the key published anywhere else).
 */
public final class CredentialIds {
    private static final byte[] DOMAIN = "agentd credential id v1".getBytes(StandardCharsets.UTF_8);

    private CredentialIds() {}

    public static CredentialId of(String provider, String key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(DOMAIN, "HmacSHA256"));
            byte[] digest = mac.doFinal((provider + "\0" + key).getBytes(StandardCharsets.UTF_8));
            return new CredentialId(provider, HexFormat.of().formatHex(digest));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** The one string a store files a credential under. */
    static String key(CredentialId id) {
        return id.provider() + ":" + id.hash();
    }
}
