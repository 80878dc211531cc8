package dev.agentd.server.ai.gemini;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;

/**
 * Gemini's {@code streamGenerateContent?alt=sse} stream as the API reference documents it: one
 * {@code data: <GenerateContentResponse>} event per chunk, each holding
 * {@code candidates[0].content.parts} (role {@code model}), the last one a {@code finishReason};
 * {@code usageMetadata} (cumulative) and {@code modelVersion}/{@code responseId} on every chunk; no
 * terminal event.
 */
final class GeminiWire {
    static final String VERSION = "gemini-2.5-flash-001";
    static final String RESPONSE_ID = "rsp-Il0taoSYJ5Cez7";

    private GeminiWire() {}

    static ObjectNode part(String text) {
        return Json.mapper().createObjectNode().put("text", text);
    }

    static ObjectNode thought(String text) {
        return part(text).put("thought", true);
    }

    static ObjectNode call(String id, String name, ObjectNode args) {
        ObjectNode part = Json.mapper().createObjectNode();
        ObjectNode call = part.putObject("functionCall").put("name", name);
        call.set("args", args);
        if (id != null) {
            call.put("id", id);
        }
        return part;
    }

    static ObjectNode signed(ObjectNode part, String signature) {
        return part.put("thoughtSignature", signature);
    }

    static String chunk(String finishReason, ObjectNode... parts) {
        ObjectNode chunk = Json.mapper().createObjectNode();
        ObjectNode candidate = chunk.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content");
        ArrayNode array = content.putArray("parts");
        for (ObjectNode part : parts) {
            array.add(part);
        }
        content.put("role", "model");
        if (finishReason != null) {
            candidate.put("finishReason", finishReason);
        }
        candidate.put("index", 0);
        chunk.putObject("usageMetadata").put("promptTokenCount", 1200).put("candidatesTokenCount", 40)
                .put("totalTokenCount", 1340).put("cachedContentTokenCount", 1000).put("thoughtsTokenCount", 100);
        chunk.put("modelVersion", VERSION).put("responseId", RESPONSE_ID);
        return "data: " + chunk + "\r\n\r\n";
    }

    static String data(String json) {
        return "data: " + json + "\r\n\r\n";
    }

    /** A 429 as the Gemini API sends it: QuotaFailure, Help and RetryInfo details, pretty-printed. */
    static String resourceExhausted(String quotaId, String retryDelay) {
        return """
                {
                  "error": {
                    "code": 429,
                    "message": "You exceeded your current quota, please check your plan and billing details. \
                For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
                    "status": "RESOURCE_EXHAUSTED",
                    "details": [
                      {
                        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                        "violations": [
                          {
                            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                            "quotaId": "%s",
                            "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"},
                            "quotaValue": "10"
                          }
                        ]
                      },
                      {
                        "@type": "type.googleapis.com/google.rpc.Help",
                        "links": [{"description": "Learn more about Gemini API quotas",
                                   "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]
                      },
                      {
                        "@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": "%s"
                      }
                    ]
                  }
                }
                """.formatted(quotaId, retryDelay);
    }

    static String status(int code, String status, String message) {
        return "{\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\",\"status\":\"" + status + "\"}}";
    }
}
