package io.gpupipe.localstack.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's job bodies. Every prompt carries its requestId after {@link #PROMPT_PREFIX}, so the model server's log
 * of prompts says how many calls each job cost. Poison bodies are what a broken producer writes to a queue.
 */
public final class SoakJobs {
    public static final String PROMPT_PREFIX = "soak-job ";
    /** In the prompt of jobs the model server makes slower than the queue's visibility timeout. */
    public static final String OUTLASTS_VISIBILITY = " outlasts-visibility ";
    /** Longer than the 100,000-character prompt limit, still far below SQS's message size limit. */
    static final int OVERSIZED_PROMPT = 100_001;
    private static final Pattern ID_IN_PROMPT = Pattern.compile(Pattern.quote(PROMPT_PREFIX) + "([0-9a-f-]{36})");

    private SoakJobs() {
    }

    /**
     * A small text-generation job; one in five is routed to the large tier; a {@code slow} one is marked
     * {@link #OUTLASTS_VISIBILITY} for the model server.
     */
    /**
     * A job body as the router sends it for {@code owner} (a queue message may say so, its senders being trusted by
     * IAM): under the stored id, with the owner and the client's id.
     */
    public static String asStored(String body, Owner owner) {
        ObjectNode job = (ObjectNode) JobJson.read(body, com.fasterxml.jackson.databind.JsonNode.class);
        String clientId = job.path("requestId").asText();
        job.put("requestId", JobIds.stored(owner, clientId)).put("owner", owner.value())
                .put("clientRequestId", clientId);
        return job.toString();
    }

    public static String job(String requestId, int index, String callbackUrl, boolean slow) {
        ObjectNode body = JobJson.mapper().createObjectNode().put("requestId", requestId).put("task", "generate")
                .put("prompt", PROMPT_PREFIX + requestId + (slow ? OUTLASTS_VISIBILITY : " ")
                        + "tells a short story, number " + index + ".")
                .put("maxTokens", 16);
        if (index % 5 == 4) {
            body.put("route", "large");
        }
        if (callbackUrl != null) {
            body.put("callbackUrl", callbackUrl);
        }
        return body.toString();
    }

    /** The requestId a model prompt was sent for. */
    public static Optional<String> requestIdOfPrompt(String prompt) {
        Matcher m = ID_IN_PROMPT.matcher(prompt);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Not JSON at all; {@code tag} lets the DLQ check find it again. */
    public static String malformed(String tag) {
        return "{\"requestId\": not-json " + tag + " ]";
    }

    /** Valid JSON with a requestId, but the prompt exceeds the limit. */
    public static String oversized(String requestId) {
        return JobJson.mapper().createObjectNode().put("requestId", requestId).put("task", "generate")
                .put("prompt", PROMPT_PREFIX + requestId + " " + "x".repeat(OVERSIZED_PROMPT)).toString();
    }

    /** Valid JSON with a requestId and a task no worker knows. */
    public static String unknownTask(String requestId) {
        return JobJson.mapper().createObjectNode().put("requestId", requestId).put("task", "transcode-video")
                .put("prompt", PROMPT_PREFIX + requestId + " unknown task").toString();
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }
}
