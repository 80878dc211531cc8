package dev.agentd.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;

/** Turns a response into its typed {@code data}, or into the RpcException it stands for. */
final class ResponseData {
    private ResponseData() {}

    /** Null for {@code Void}, an absent {@code data} and a literal {@code "data":null}. */
    static <T> T decode(Response response, Class<T> dataType) {
        if (!response.success()) {
            throw RpcException.serverError(response.command(), response.error());
        }
        if (dataType == Void.class || response.data() == null || response.data().isNull()) {
            return null;
        }
        try {
            return Json.mapper().treeToValue(response.data(), dataType);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new RpcException("Unexpected " + response.command() + " data: " + e.getMessage(),
                    response.command(), null, null, e);
        }
    }
}
