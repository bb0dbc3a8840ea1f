package io.gpupipe.worker.throwaway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A tier added the way docs/tiers.md says, and only that way: one catalogue entry ({@code medium.json}, appended to
 * the bundled tiers.json) and one model file ({@code medium.env}, beside native-build/models/*.env). Tests of every
 * module that takes tiers from data build on these two inputs alone (gpu-worker, cdk through the test-jar), so a
 * third file a new tier needed would make them fail.
 */
public final class ThrowawayTier {
    public static final Tier MEDIUM = Tier.of("medium");
    private static final String ENTRY = "medium.json";
    private static final String MODEL_FILE = "medium.env";

    private ThrowawayTier() {
    }

    /** The bundled tiers.json with the entry appended: exactly what a developer's edit of the file gives. */
    public static TierCatalogue catalogue() {
        return TierCatalogue.parse(catalogueJson());
    }

    /** The text of that tiers.json. */
    public static String catalogueJson() {
        ObjectMapper json = new ObjectMapper();
        try (InputStream bundled = TierCatalogue.class.getResourceAsStream(TierCatalogue.RESOURCE)) {
            ObjectNode root = (ObjectNode) json.readTree(bundled);
            ((ArrayNode) root.get("tiers")).add(json.readTree(resource(ENTRY)));
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of {@code repositoryModels} (native-build/models) in {@code into}, plus the tier's model file. */
    public static Path modelsDirectory(Path repositoryModels, Path into) {
        try (Stream<Path> files = Files.list(repositoryModels)) {
            Files.createDirectories(into);
            for (Path file : files.filter(f -> f.toString().endsWith(".env")).toList()) {
                Files.copy(file, into.resolve(file.getFileName()));
            }
            Files.writeString(into.resolve(MODEL_FILE), resource(MODEL_FILE));
            return into;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = ThrowawayTier.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test resource io/gpupipe/worker/throwaway/" + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
