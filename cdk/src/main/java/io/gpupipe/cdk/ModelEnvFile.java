package io.gpupipe.cdk;

import io.gpupipe.cdk.sizing.ModelFootprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tier's model, as {@code native-build/models/<tier>.env} pins it: the one file that says which model a tier
 * serves. build.sh and deploy.yml {@code source} it (VLLM_IMAGE, MODEL_REPO, MODEL_REVISION, IMAGE_TAG); the CDK app
 * reads the same keys plus the sizing gate's figures (MODEL_NAME, MODEL_PARAMETERS, MODEL_BYTES_PER_PARAMETER,
 * MODEL_LAYERS, MODEL_HIDDEN_SIZE, MODEL_KV_HEADS, MODEL_ATTENTION_HEADS, MODEL_CONCURRENT_SEQUENCES, and optionally
 * MODEL_MAX_SEQUENCE_LENGTH) and the optional INSTANCE_TYPES the tier's GPU instances are chosen from
 * ({@link TierSpec#allowedInstanceTypes()}).
 */
public final class ModelEnvFile {
    /** Where the files live, relative to the repository root. */
    public static final Path DIRECTORY = Path.of("native-build", "models");
    /**
     * Optional: the model's own context when it is shorter than the tiers' usual {@link Tiers#MAX_SEQUENCE_LENGTH}
     * (vLLM refuses a {@code --max-model-len} above the checkpoint's {@code max_position_embeddings}).
     */
    static final String MAX_SEQUENCE_LENGTH = "MODEL_MAX_SEQUENCE_LENGTH";

    private ModelEnvFile() {
    }

    /** The model {@code <tier>.env} in {@code directory} names; a missing file or key is a readable error. */
    public static ServedModel read(Path directory, String tier) {
        Path file = directory.resolve(tier + ".env");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("tier " + tier + " is in the catalogue but " + file + " does not exist: "
                    + "every tier needs its model file (see docs/tiers.md)");
        }
        Map<String, String> env = parse(file);
        ModelFootprint footprint = ModelFootprint.builder(required(env, file, "MODEL_NAME"))
                .parameters(Long.parseLong(required(env, file, "MODEL_PARAMETERS")))
                .bytesPerParameter(Double.parseDouble(required(env, file, "MODEL_BYTES_PER_PARAMETER")))
                .layers(integer(env, file, "MODEL_LAYERS"), integer(env, file, "MODEL_HIDDEN_SIZE"))
                .groupedQueryAttention(integer(env, file, "MODEL_KV_HEADS"), integer(env, file, "MODEL_ATTENTION_HEADS"))
                .maxSequenceLength(env.containsKey(MAX_SEQUENCE_LENGTH) ? integer(env, file, MAX_SEQUENCE_LENGTH)
                        : Tiers.MAX_SEQUENCE_LENGTH)
                .maxConcurrentSequences(integer(env, file, "MODEL_CONCURRENT_SEQUENCES"))
                .build();
        return new ServedModel(footprint, required(env, file, "MODEL_REPO"), required(env, file, "IMAGE_TAG"),
                required(env, file, "MODEL_REVISION"), instanceTypes(env));
    }

    /** KEY=VALUE lines, as a shell's {@code source} reads them here (comments and blank lines skipped). */
    public static Map<String, String> parse(Path file) {
        Map<String, String> values = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String trimmed = line.strip();
                int eq = trimmed.indexOf('=');
                if (!trimmed.isEmpty() && !trimmed.startsWith("#") && eq > 0) {
                    values.put(trimmed.substring(0, eq), trimmed.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return values;
    }

    /**
     * {@code native-build/models} of the repository the app runs in: from the working directory or a parent of it
     * (synth.sh runs from anywhere in the repository, {@code cdk deploy} from {@code cdk/}).
     */
    public static Path locate() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(DIRECTORY);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + DIRECTORY + " in " + Path.of("").toAbsolutePath()
                + " or a parent: run the CDK app inside the gpupipe repository");
    }

    private static String required(Map<String, String> env, Path file, String key) {
        return Optional.ofNullable(env.get(key)).filter(v -> !v.isBlank()).orElseThrow(() ->
                new IllegalStateException(file + ": " + key + " is missing (see docs/tiers.md)"));
    }

    /** Optional INSTANCE_TYPES: comma-separated EC2 instance types or patterns ({@code g6e.*}); empty if absent. */
    private static List<String> instanceTypes(Map<String, String> env) {
        String value = env.getOrDefault("INSTANCE_TYPES", "").strip();
        return value.isEmpty() ? List.of() : Arrays.stream(value.split(",")).map(String::strip).toList();
    }

    private static int integer(Map<String, String> env, Path file, String key) {
        return Integer.parseInt(required(env, file, key));
    }
}
