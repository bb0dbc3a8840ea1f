package io.gpupipe.cdk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The SAM CLI's {@code samconfig.toml} at the repository root: the one place that names the serverless stack and its
 * region per configuration environment ({@code default}, {@code prod}). The CDK app reads the same two values, so the
 * GPU stacks land in the region whose exports they import. Only what that file uses is read: {@code [env.command.
 * parameters]} tables of {@code key = "string"} pairs (no arrays, inline tables or multi-line strings).
 */
public record SamConfig(Map<String, Map<String, String>> tables) {
    public static final String FILE = "samconfig.toml";
    public static final String DEFAULT_ENVIRONMENT = "default";

    public SamConfig {
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        tables.forEach((table, values) -> copy.put(table, Map.copyOf(values)));
        tables = Collections.unmodifiableMap(copy);
    }

    /** The stack name of configuration environment {@code env} ({@code stack_name} of its global or deploy table). */
    public Optional<String> stackName(String env) {
        return value(env, "stack_name");
    }

    /** The region {@code sam deploy --config-env env} deploys to. */
    public Optional<String> region(String env) {
        return value(env, "region");
    }

    /** True when the file has any table of {@code env}. */
    public boolean hasEnvironment(String env) {
        return tables.keySet().stream().anyMatch(t -> t.startsWith(env + "."));
    }

    private Optional<String> value(String env, String key) {
        for (String table : new String[] {env + ".deploy.parameters", env + ".global.parameters"}) {
            String value = tables.getOrDefault(table, Map.of()).get(key);
            if (value != null && !value.isBlank()) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The repository's samconfig.toml (working directory or a parent, as {@link ModelEnvFile#locate()}), if any. */
    public static Optional<SamConfig> locate() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(FILE);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(read(candidate));
            }
        }
        return Optional.empty();
    }

    public static SamConfig read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** {@code [table]} headers and {@code key = "value"} lines; comments, blank lines and other values skipped. */
    public static SamConfig parse(String toml) {
        Map<String, Map<String, String>> tables = new LinkedHashMap<>();
        Map<String, String> current = new LinkedHashMap<>();
        for (String raw : toml.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("[") && line.endsWith("]")) {
                current = tables.computeIfAbsent(line.substring(1, line.length() - 1).strip(),
                        t -> new LinkedHashMap<>());
                continue;
            }
            int eq = line.indexOf('=');
            if (line.startsWith("#") || eq < 1) {
                continue;
            }
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.indexOf('"', 1) > 0) {
                current.put(line.substring(0, eq).strip(), value.substring(1, value.indexOf('"', 1)));
            }
        }
        return new SamConfig(tables);
    }
}
