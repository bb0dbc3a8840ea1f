package io.gpupipe.model.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The tier-queue message format, defined once. A job travels inline as its JSON ({@link JobJson#write}) with every
 * character SQS cannot carry written as a JSON {@code \\u} escape (same JSON value, so the worker reads it back
 * intact); a job whose message would exceed the queue's size limit travels as a claim check: its JSON is stored at
 * {@link JobLayout#payloadKey} and the message is {@code {"requestId": id, "payloadKey": "payloads/{id}.json"}}.
 *
 * <p>SQS accepts only {@code #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF} in a body and
 * rejects anything else with InvalidMessageContents; a body is at most 1 MiB, and a queue's MaximumMessageSize
 * (default 262,144 bytes, what our templates' queues use) caps body plus attributes (SendMessage, MessageBody,
 * Amazon SQS API Reference).
 */
public final class JobMessage {
    /** SQS's default MaximumMessageSize, which the tier queues keep: body and attributes together. */
    public static final int SQS_DEFAULT_MAX_MESSAGE_BYTES = 262_144;
    /** Bytes kept free for the message attributes (tier, task, priority: well under 200 bytes). */
    public static final int ATTRIBUTE_ALLOWANCE_BYTES = 1024;
    static final String PAYLOAD_KEY = "payloadKey";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JobMessage() {
    }

    /** The inline message body of {@code job}: its JSON, with what SQS cannot carry escaped. */
    public static String inline(InferenceJob job) {
        return queueSafe(JobJson.write(job));
    }

    /** The claim-check message body pointing at the payload object of the job {@code requestId} (of no owner). */
    public static String pointer(String requestId) {
        return JobJson.write(new Pointer(requestId, JobLayout.payloadKey(requestId), null, null));
    }

    /**
     * The claim-check message body pointing at {@code job}'s payload object; it names the job's owner and client id
     * too, so a dead-lettered pointer still settles the owner's quota and reaches its client by its own id.
     */
    public static String pointer(InferenceJob job) {
        return JobJson.write(new Pointer(job.requestId(), JobLayout.payloadKey(job.requestId()), job.owner(),
                job.clientRequestId()));
    }

    /** The document stored at {@link JobLayout#payloadKey}; escaped too, as UTF-8 cannot carry a lone surrogate. */
    public static String payload(InferenceJob job) {
        return queueSafe(JobJson.write(job));
    }

    /** True when {@code body} fits a queue whose MaximumMessageSize is {@code maxMessageBytes}. */
    public static boolean fitsInline(String body, int maxMessageBytes) {
        return utf8Length(body) + ATTRIBUTE_ALLOWANCE_BYTES <= maxMessageBytes;
    }

    /**
     * The payload key of a claim-check message, or empty when {@code body} is an inline job (or not JSON: the
     * parser reports that). Only {@code payloads/{requestId}.json} of the message's own valid requestId is
     * honoured, so a message sent straight to a queue cannot make the worker read any other object.
     */
    public static Optional<String> payloadKey(String body) {
        if (body == null || !body.contains(PAYLOAD_KEY)) {
            return Optional.empty();
        }
        try {
            return payloadKey(JobJson.mapper().readTree(body));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** {@link #payloadKey(String)} of a parsed body. */
    public static Optional<String> payloadKey(JsonNode node) {
        if (node == null || !node.isObject() || !node.path(PAYLOAD_KEY).isTextual() || node.has("prompt")
                || node.has("messages")) {
            return Optional.empty();
        }
        String id = node.path("requestId").asText(null);
        String key = node.path(PAYLOAD_KEY).asText();
        return RequestIds.isValid(id) && key.equals(JobLayout.payloadKey(
                RequestIds.normalize(id))) ? Optional.of(key) : Optional.empty();
    }

    /** {@code json} with every character outside SQS's allowed set (and every lone surrogate) as a JSON escape. */
    public static String queueSafe(String json) {
        StringBuilder out = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < json.length()
                    && Character.isLowSurrogate(json.charAt(i + 1));
            if (pair) {
                if (out != null) {
                    out.append(c).append(json.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (isAllowedBmp(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(json.length() + 16).append(json, 0, i);
            }
            out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf])
                    .append(HEX[c & 0xf]);
        }
        return out == null ? json : out.toString();
    }

    /** True when SQS accepts every character of {@code text} (its allowed set, surrogates only in valid pairs). */
    public static boolean isQueueSafe(String text) {
        return queueSafe(text).equals(text);
    }

    /** The UTF-8 size of {@code text}, as SQS counts it. */
    public static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static boolean isAllowedBmp(char c) {
        return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
    }

    /** The claim-check message. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Pointer(String requestId, String payloadKey, String owner, String clientRequestId) {
    }
}
