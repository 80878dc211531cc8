package dev.agentd.server.testing.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * A service-account key file as the Cloud console writes it, with an RSA key made for the test
 * and a {@code token_uri} of the test's choosing (a fake server answering the token exchange).
 */
public record GoogleServiceAccount(String json, String privateKeyPem) {
    public static final String TOKEN = "ya29.test-token";
    public static final String TOKEN_REPLY = "{\"access_token\":\"" + TOKEN
            + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}";

    /** @param projectId null for a key file without one */
    public static GoogleServiceAccount create(String tokenUri, String projectId) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pkcs8) + "\n-----END PRIVATE KEY-----\n";
            ObjectNode file = Json.mapper().createObjectNode();
            file.put("type", "service_account");
            if (projectId != null) {
                file.put("project_id", projectId);
            }
            file.put("private_key_id", "0123456789abcdef0123456789abcdef01234567");
            file.put("private_key", pem);
            file.put("client_email", "agentd-test@" + (projectId == null ? "p" : projectId)
                    + ".iam.gserviceaccount.com");
            file.put("client_id", "123456789012345678901");
            file.put("token_uri", tokenUri);
            return new GoogleServiceAccount(file.toString(), pem);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A line of the key's base64 body: long and unique enough to find in any leak. */
    public String keyLine() {
        return privateKeyPem.split("\n")[3];
    }
}
