package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.usage.UsageLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The results bucket is versioned, so every overwrite or delete of a key keeps the old bytes as a noncurrent version
 * until a lifecycle rule expires them. Every top-level key prefix the code defines (a {@code *PREFIX} constant such as
 * {@link JobLayout#JOBS_PREFIX}, {@link BatchLayout#BATCHES_PREFIX}, {@link UsageLayout#USAGE_PREFIX} or the quota
 * ledgers' prefix) must have an enabled rule expiring noncurrent versions; the prefixes are read from the code, so a
 * new layout constant without a rule fails here. (The CDK app owns no bucket: it imports the results bucket and the
 * optional model-weights bucket by name.)
 */
class BucketVersionLeakTest {
    /** A key prefix at the bucket's top level: one path segment and its slash ("jobs/", "batch-inputs/"). */
    private static final Pattern TOP_LEVEL_PREFIX = Pattern.compile("^[a-z][a-z0-9-]*/$");

    @Test
    void everyPrefixTheCodeWrites_shouldHaveARuleExpiringNoncurrentVersions() {
        // given: the top-level prefixes the code's layout constants name
        Set<String> prefixes = layoutPrefixes();
        assertThat(prefixes).as("prefixes found in the layout classes")
                .contains(JobLayout.JOBS_PREFIX, BatchLayout.BATCHES_PREFIX, UsageLayout.USAGE_PREFIX);

        // when
        List<Map<String, Object>> noncurrentRules = bucketRules().stream()
                .filter(rule -> "Enabled".equals(rule.get("Status")))
                .filter(rule -> rule.get("NoncurrentVersionExpiration") != null
                        || rule.get("NoncurrentVersionExpirationInDays") != null)
                .toList();

        // then
        assertThat(prefixes).as("prefixes without a rule expiring noncurrent versions").allSatisfy(prefix ->
                assertThat(noncurrentRules).as(prefix).anySatisfy(rule ->
                        assertThat(prefix).startsWith(rulePrefix(rule))));
    }

    private static List<Map<String, Object>> bucketRules() {
        Map<String, Map<String, Object>> buckets = SamTemplateTest.include().findResources("AWS::S3::Bucket");
        assertThat(buckets).hasSize(1);
        return list(map(properties(buckets.values().iterator().next()).get("LifecycleConfiguration")).get("Rules"))
                .stream().map(TemplateJson::map).toList();
    }

    /** A rule's prefix, in either form (Prefix, or Filter.Prefix); "" when it applies to the whole bucket. */
    private static String rulePrefix(Map<String, Object> rule) {
        Object prefix = Optional.ofNullable(rule.get("Prefix"))
                .or(() -> Optional.ofNullable(rule.get("Filter")).map(filter -> map(filter).get("Prefix")))
                .orElse("");
        return String.valueOf(prefix);
    }

    /** Every public static final String {@code *PREFIX} field of shared-model whose value is a top-level key prefix. */
    static Set<String> layoutPrefixes() {
        Set<String> prefixes = new TreeSet<>();
        for (Class<?> type : modelClasses()) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)
                        && Modifier.isPublic(modifiers) && field.getName().endsWith("PREFIX")) {
                    String value = (String) read(field);
                    if (TOP_LEVEL_PREFIX.matcher(value).matches()) {
                        prefixes.add(value);
                    }
                }
            }
        }
        return prefixes;
    }

    private static Object read(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(field.toString(), e);
        }
    }

    /** The classes of shared-model (io.gpupipe.model...), from its classes directory or its jar. */
    private static List<Class<?>> modelClasses() {
        try {
            Path root = Path.of(JobLayout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(root)) {
                return classesUnder(root);
            }
            try (FileSystem jar = FileSystems.newFileSystem(root)) {
                return classesUnder(jar.getPath("/"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Class<?>> classesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("io/gpupipe/model"))) {
            return files.map(file -> root.relativize(file).toString())
                    .filter(name -> name.endsWith(".class"))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .map(BucketVersionLeakTest::load)
                    .filter(Objects::nonNull)
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, BucketVersionLeakTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
