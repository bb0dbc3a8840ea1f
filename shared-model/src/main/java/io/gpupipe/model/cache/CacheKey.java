package io.gpupipe.model.cache;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.Digests;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The result cache's key: SHA-256 (hex) over a canonical JSON encoding of exactly what decides a job's output — the
 * model version that runs it, the task, the input and the task's output-affecting parameters, and whose job it is:
 * the cache is partitioned by owner, so a hit never tells one caller that another asked the same (the trusted batch
 * and prompt-caching services scope caches to an organisation the same way). Never the requestId, submission time,
 * callback, priority, TTL or route: two requests of one owner that differ only there get the same answer.
 */
public record CacheKey(String hex) {
    /** The encoding's version: a change of what goes into the key changes every key (old entries just miss). */
    static final String SCHEMA = "gpupipe-cache/2";
    /** The audio format the worker asks the speech server for (and the cache stores). */
    static final String SPEECH_FORMAT = "wav";
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    public CacheKey {
        if (hex == null || !SHA256_HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("a cache key is 64 lower-case hex digits, got " + hex);
        }
    }

    /** {@code cache/{key}.json}: this key's cache entry. */
    public String entryObjectKey() {
        return JobLayout.CACHE_PREFIX + hex + JobLayout.JSON_SUFFIX;
    }

    /**
     * {@code cache/{key}.{sourceId}.wav}: the cache's own copy of a speech result's audio. Named by the request that
     * produced it too, so two workers caching one key at once never overwrite each other's audio.
     */
    public String audioObjectKey(String sourceRequestId) {
        return JobLayout.CACHE_PREFIX + hex + "." + sourceRequestId + JobLayout.WAV_SUFFIX;
    }

    /** {@code cache/{key}.{sourceId}.embeddings}: the cache's own copy of an embedding result's vectors object. */
    public String embeddingsObjectKey(String sourceRequestId) {
        return JobLayout.CACHE_PREFIX + hex + "." + sourceRequestId + JobLayout.EMBEDDINGS_SUFFIX;
    }

    /** The key of {@code job} run by the model of version {@code modelVersion}. */
    public static CacheKey of(String modelVersion, InferenceJob job) {
        return new CacheKey(Digests.sha256Hex(canonical(modelVersion, job)));
    }

    /**
     * The encoded fields, in a fixed order, nulls written as null so that a field's absence is part of the text.
     * Each task encodes only the parameters its model server takes (speech takes no sampling parameters; text no
     * voice): a parameter that cannot change the output must not split the cache.
     */
    static String canonical(String modelVersion, InferenceJob job) {
        Objects.requireNonNull(modelVersion, "modelVersion");
        ObjectNode node = JobJson.mapper().createObjectNode();
        node.put("schema", SCHEMA).put("modelVersion", modelVersion).put("owner", job.owner())
                .put("task", job.task().wireName());
        switch (job.task()) {
            case GENERATE -> {
                node.put("prompt", job.prompt());
                node.set("messages", messages(job));
                node.put("maxTokens", job.maxTokens()).put("temperature", job.temperature()).put("topP", job.topP())
                        .put("seed", job.seed());
                if (job.responseFormat() != null && job.responseFormat().constrains()) {
                    // only when it constrains: "text" asks for what no format asks for, and the keys of jobs
                    // without a format stay what they were before formats existed
                    node.set("responseFormat", JobJson.mapper().valueToTree(job.responseFormat()));
                }
            }
            case SPEECH -> node.put("prompt", job.prompt()).put("voice", job.voice()).put("language", job.language())
                    .put("speed", job.speed()).put("instructions", job.instructions())
                    .put("responseFormat", SPEECH_FORMAT);
            case EMBED -> {
                ArrayNode input = node.putArray("input");
                job.input().forEach(input::add);
                EmbeddingFields fields = job.embeddingFields().orElseThrow();
                node.put("dimensions", job.dimensions()).put("encodingFormat", fields.format().wireName());
            }
        }
        return JobJson.write(node);
    }

    private static ArrayNode messages(InferenceJob job) {
        if (job.messages() == null) {
            return null;
        }
        ArrayNode array = JobJson.mapper().createArrayNode();
        for (ChatMessage message : job.messages()) {
            array.addObject().put("role", message.role().wireName()).put("content", message.content());
        }
        return array;
    }
}
