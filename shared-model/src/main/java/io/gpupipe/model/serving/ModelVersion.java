package io.gpupipe.model.serving;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Exactly which weights a tier serves (seed 003: every result names the model version that produced it): the
 * Hugging Face repository, the commit its weights were downloaded at (never a branch such as {@code main}, which
 * moves), and the model-server image tag they were baked into.
 *
 * <p>The model-server image keeps the weights at {@link #servedPath()}, which embeds the commit, and vLLM reports
 * that path as the model's {@code root} in {@code GET /v1/models}: the worker compares it before it claims
 * {@link #wireForm()} in any result.
 */
public record ModelVersion(String repository, String revision, String serverImageTag) {
    private static final Pattern COMMIT = Pattern.compile("^[0-9a-f]{40}$");

    public ModelVersion {
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(serverImageTag, "serverImageTag");
        if (!isCommit(revision)) {
            throw new IllegalArgumentException("model revision of " + repository + " must be a commit: 40 lower-case "
                    + "hex digits, got \"" + revision + "\" (branches and tags move; pin the commit the weights were "
                    + "reviewed at)");
        }
    }

    /** True for a full Git commit id (40 lower-case hex digits). */
    public static boolean isCommit(String revision) {
        return revision != null && COMMIT.matcher(revision).matches();
    }

    /** Where the model-server image keeps the weights, and what vLLM reports as the model's root. */
    public String servedPath() {
        return "/models/" + revision;
    }

    /**
     * Where staged weights live in a bucket when the model server streams them from S3 instead of its image:
     * {@code models/<repository>/<revision>/} (native-build/stage-weights.sh writes exactly there).
     */
    public String stagedPrefix() {
        return "models/" + repository + "/" + revision + "/";
    }

    /** The S3 URI vLLM serves staged weights from, and then reports as the model's root. */
    public String streamedPath(String bucket) {
        return "s3://" + bucket + "/" + stagedPrefix();
    }

    /** The value results carry as {@code modelVersion}: {@code repository@revision+image tag}. */
    public String wireForm() {
        return repository + "@" + revision + "+" + serverImageTag;
    }
}
