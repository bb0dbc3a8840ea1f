package io.gpupipe.cdk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code podman} command line with the container test's {@code containers.conf} (runc, the sandbox's ulimits).
 * Each call is one process with a deadline; its output (stdout and stderr) comes back with its exit code.
 */
final class Podman {
    /** The test's settings for podman, relative to the cdk module. */
    public static final Path CONF = Path.of("src/test/container/containers.conf");
    /** The script that builds the base image (Debian from Debian's packages, JRE 17, curl, python3). */
    public static final Path BASE_IMAGE_SCRIPT = Path.of("src/test/container/base-image.sh");
    public static final String BASE_IMAGE = "localhost/gpupipe-base:test";

    /** What a podman call printed and how it ended. */
    public record Result(List<String> command, int exitCode, String output) {
        public Result orFail() {
            if (exitCode != 0) {
                throw new IllegalStateException("podman failed (exit " + exitCode + "): " + String.join(" ", command)
                        + "\n" + output);
            }
            return this;
        }
    }

    private Podman() {
    }

    /** The podman executable on the PATH, if any. */
    public static Optional<Path> executable() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "podman");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static Result run(Duration timeout, String... args) {
        return run(timeout, List.of(args));
    }

    public static Result run(Duration timeout, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(args);
        try {
            Path output = Files.createTempFile("podman-", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile());
                builder.environment().put("CONTAINERS_CONF", CONF.toAbsolutePath().toString());
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                    return new Result(command, -1, "timed out after " + timeout + ":\n"
                            + Files.readString(output, StandardCharsets.UTF_8));
                }
                return new Result(command, process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }
}
