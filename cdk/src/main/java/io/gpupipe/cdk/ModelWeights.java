package io.gpupipe.cdk;

import io.gpupipe.model.serving.ModelVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * Where a tier's model server finds its weights: baked into its image (the default, right for small models) or
 * staged in S3 and streamed into GPU memory at start by vLLM's Run:ai Model Streamer ({@code --load-format
 * runai_streamer}; docs.vllm.ai, "Loading models with Run:ai Model Streamer"), which takes the image pull of the
 * weights off the cold start (docs/cold-start.md). Context {@code <tier>Weights}: {@code image} (default) or
 * {@code s3}; {@code s3} needs {@code modelWeightsBucket}, the bucket native-build/stage-weights.sh filled, and a
 * lean image (built without weights, tagged {@code <image tag>}{@value #LEAN_TAG_SUFFIX}).
 */
final class ModelWeights {
    /** native-build/build.sh --weights s3 tags the image without weights with the tier's tag and this suffix. */
    static final String LEAN_TAG_SUFFIX = "-lean";
    /**
     * Streamer threads reading from S3 (the streamer's {@code concurrency}; 16 is the value vLLM's docs show, the
     * Run:ai benchmark's S3 runs used up to 32).
     */
    static final int STREAMER_CONCURRENCY = 16;

    private final TierSpec spec;
    private final Optional<String> bucket;

    private ModelWeights(TierSpec spec, Optional<String> bucket) {
        this.spec = spec;
        this.bucket = bucket;
    }

    /** The choice the context makes for {@code spec}'s tier; fails readably on an unknown value or no bucket. */
    static ModelWeights of(Construct scope, TierSpec spec) {
        String key = spec.tier().wireName() + "Weights";
        String source = context(scope, key).orElse("image");
        return switch (source) {
            case "image" -> new ModelWeights(spec, Optional.empty());
            case "s3" -> new ModelWeights(spec, Optional.of(context(scope, "modelWeightsBucket").orElseThrow(() ->
                    new IllegalArgumentException("-c " + key + "=s3 needs -c modelWeightsBucket=<bucket holding "
                            + spec.modelVersion().stagedPrefix() + "> (native-build/stage-weights.sh fills it)"))));
            default -> throw new IllegalArgumentException("-c " + key + " must be image or s3, got " + source);
        };
    }

    boolean streamed() {
        return bucket.isPresent();
    }

    /** What vLLM serves, and reports as the model's root in GET /v1/models (the worker checks it). */
    String servedPath() {
        ModelVersion version = spec.modelVersion();
        return bucket.map(version::streamedPath).orElseGet(version::servedPath);
    }

    /** The model-server image tag: the tier's, or its lean variant when the weights are streamed. */
    String imageTag() {
        return streamed() ? spec.modelServerImageTag() + LEAN_TAG_SUFFIX : spec.modelServerImageTag();
    }

    /**
     * The load flags: none for baked weights; for streamed ones the streamer and its concurrency, distributed over
     * the tensor-parallel workers when there are several (each worker streams only its shards instead of the whole
     * model, marin-community/marin#7136).
     */
    List<String> loadArgs() {
        if (!streamed()) {
            return List.of();
        }
        String extra = "{\"concurrency\":" + STREAMER_CONCURRENCY
                + (spec.gpuShare().devices() > 1 ? ",\"distributed\":true" : "") + "}";
        return List.of("--load-format", "runai_streamer", "--model-loader-extra-config", extra);
    }

    /** Environment the streamer needs: the region of the bucket's endpoint (credentials: the task role). */
    Map<String, String> environment(Construct scope) {
        Map<String, String> env = new LinkedHashMap<>();
        if (streamed()) {
            env.put("AWS_REGION", Stack.of(scope).getRegion());
        }
        return env;
    }

    /** Read access to exactly this model's staged weights for {@code role}. */
    void grantRead(Construct scope, IGrantable role) {
        bucket.ifPresent(name -> {
            IBucket staged = Bucket.fromBucketName(scope, "ModelWeightsBucket", name);
            staged.grantRead(role, spec.modelVersion().stagedPrefix() + "*");
        });
    }

    /** The model server's arguments after {@code vllm serve}: the served path, the load flags, then {@code rest}. */
    List<String> serveArgs(List<String> rest) {
        List<String> args = new ArrayList<>();
        args.add(servedPath());
        args.addAll(loadArgs());
        args.addAll(rest);
        return args;
    }

    private static Optional<String> context(Construct scope, String key) {
        Object value = scope.getNode().tryGetContext(key);
        return value == null || value.toString().isBlank() ? Optional.empty() : Optional.of(value.toString());
    }
}
