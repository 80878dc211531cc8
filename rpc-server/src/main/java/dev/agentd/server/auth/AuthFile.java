package dev.agentd.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.JsonProblems;
import dev.agentd.server.runtime.Suggest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code auth.json}: provider → a credential or an array of credentials. A malformed
 * file is reported with line and column and ignored; a credential of an unknown shape is
 * reported (naming the provider and the field, never a value) and skipped.
 */
final class AuthFile {
    private static final Set<String> CREDENTIAL_FIELDS = Set.of("type", "key");

    private AuthFile() {}

    /** provider → credential specs as written; problems are added to {@code warnings}. */
    static Map<String, List<String>> read(Path authFile, List<String> warnings) {
        Map<String, List<String>> stored = new HashMap<>();
        if (authFile != null && Files.exists(authFile)) {
            try {
                JsonNode root = Json.mapper().readTree(Files.readString(authFile, StandardCharsets.UTF_8));
                if (root != null && root.isObject()) {
                    root.fields().forEachRemaining(entry -> {
                        List<String> keys = new ArrayList<>();
                        JsonNode value = entry.getValue();
                        String where = authFile + ": '" + entry.getKey() + "'";
                        if (value.isArray()) {
                            for (int i = 0; i < value.size(); i++) {
                                credentialSpec(value.get(i), where + " credential #" + (i + 1), warnings)
                                        .ifPresent(keys::add);
                            }
                        } else {
                            credentialSpec(value, where, warnings).ifPresent(keys::add);
                        }
                        if (!keys.isEmpty()) {
                            stored.put(entry.getKey(), keys);
                        }
                    });
                } else if (root != null && !root.isMissingNode()) {
                    warnings.add(authFile + " is not a JSON object; ignoring it");
                }
            } catch (IOException e) {
                warnings.add("auth file is malformed JSON: " + JsonProblems.describe(authFile.toString(), e)
                        + "; ignoring it");
            }
        }
        return stored;
    }

    private static Optional<String> credentialSpec(JsonNode credential, String where, List<String> warnings) {
        if (credential.isTextual()) {
            return Optional.of(credential.textValue());
        }
        if (!credential.isObject()) {
            warnings.add(where + " must be a string or {\"type\":\"api_key\",\"key\":...}; ignored");
            return Optional.empty();
        }
        credential.fieldNames().forEachRemaining(field -> {
            if (!CREDENTIAL_FIELDS.contains(field)) {
                warnings.add(where + " has an unknown field '" + TextCut.cut(field) + "'"
                        + Suggest.didYouMean(field, CREDENTIAL_FIELDS) + "; ignored");
            }
        });
        JsonNode type = credential.path("type");
        if (!type.isMissingNode() && !"api_key".equals(type.asText())) {
            String shown = type.isTextual() ? "'" + TextCut.cut(type.textValue()) + "'" : type.getNodeType().toString();
            warnings.add(where + ": credential type " + shown + " is not supported"
                    + (type.isTextual() ? Suggest.didYouMean(type.textValue(), Set.of("api_key")) : "")
                    + "; only \"api_key\" is; ignored");
            return Optional.empty();
        }
        JsonNode key = credential.get("key");
        if (key == null || !key.isTextual() || key.textValue().isBlank()) {
            warnings.add(where + " needs a non-empty string 'key'; ignored");
            return Optional.empty();
        }
        return Optional.of(key.textValue());
    }

    /** Field names and types are shown only when short: a key pasted in the wrong place stays hidden. */
    private static final class TextCut {
        static String cut(String text) {
            return text.length() > 16 ? "<" + text.length() + " characters>" : text;
        }
    }
}
