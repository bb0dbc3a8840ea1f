package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.child.LambdaHost;
import io.gpupipe.localstack.exception.StartupException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Where the stack's components are, as their builds leave them: each Lambda function's deployment package
 * ({@code functions/NAME/target/function.zip}, unpacked once per version into this module's {@code target/}) and the
 * worker's {@code gpu-worker/target/quarkus-app/quarkus-run.jar}.
 */
public final class ComponentPackages {
    private static final String CHILD_PACKAGE = "io/gpupipe/localstack/child/";
    private static final Duration STALE_UNPACKED = Duration.ofDays(1);

    private final Path repo;
    private final Path unpackRoot;

    public ComponentPackages(Path repo) {
        this.repo = repo;
        this.unpackRoot = repo.resolve("local-stack/launcher/target/local-stack/unpacked");
    }

    public Path repo() {
        return repo;
    }

    /** {@code functions/MODULE/target/function.zip}, if that module has been built. */
    public Optional<Path> functionZip(String module) {
        Path zip = repo.resolve("functions").resolve(module).resolve("target/function.zip");
        return Files.isRegularFile(zip) ? Optional.of(zip) : Optional.empty();
    }

    /** The worker's {@code quarkus-run.jar}, if it has been built. */
    public Optional<Path> workerRunner() {
        Path jar = repo.resolve("gpu-worker/target/quarkus-app/quarkus-run.jar");
        return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    }

    /**
     * The classpath AWS's Java runtime builds for a JVM deployment package: the package root, then every
     * {@code lib/*.jar}. The zip is unpacked once per version (size and time) and reused.
     */
    public List<Path> lambdaClasspath(String name, Path zip) {
        Path dir = unpacked(name, zip);
        List<Path> classpath = new ArrayList<>();
        classpath.add(dir);
        Path lib = dir.resolve("lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                jars.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().forEach(classpath::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return classpath;
    }

    private Path unpacked(String name, Path zip) {
        try {
            String version = Files.size(zip) + "-" + Files.getLastModifiedTime(zip).toMillis();
            Path dir = unpackRoot.resolve(name + "-" + version);
            if (Files.isDirectory(dir)) {
                return dir;
            }
            Files.createDirectories(unpackRoot);
            pruneStale(name, dir);
            Path temp = Files.createTempDirectory(unpackRoot, name + "-unpacking-");
            unzip(zip, temp);
            try {
                Files.move(temp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                deleteTree(temp);
            } catch (IOException e) {
                if (!Files.isDirectory(dir)) {
                    throw e;
                }
                deleteTree(temp);
            }
            return dir;
        } catch (IOException e) {
            throw new StartupException("cannot unpack " + zip + " (" + e.getMessage() + "); rebuild it with the "
                    + "README command", e);
        }
    }

    private void pruneStale(String name, Path keep) throws IOException {
        Instant cutoff = Instant.now().minus(STALE_UNPACKED);
        try (Stream<Path> dirs = Files.list(unpackRoot)) {
            for (Path old : dirs.filter(p -> p.getFileName().toString().startsWith(name + "-"))
                    .filter(p -> !p.equals(keep)).toList()) {
                if (Files.getLastModifiedTime(old).toInstant().isBefore(cutoff)) {
                    deleteTree(old);
                }
            }
        }
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("zip entry outside its root: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * A directory holding only this module's child-process classes ({@code io.gpupipe.localstack.child}), copied out
     * of wherever the launcher runs from, to put on a child's classpath without the rest of the launcher.
     */
    public static Path extractChildClasses(Path into) {
        try {
            Path location = Path.of(LambdaHost.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path target = into.resolve(CHILD_PACKAGE);
            Files.createDirectories(target);
            if (Files.isDirectory(location)) {
                try (Stream<Path> classes = Files.list(location.resolve(CHILD_PACKAGE))) {
                    for (Path c : classes.filter(p -> p.toString().endsWith(".class")).toList()) {
                        Files.copy(c, target.resolve(c.getFileName().toString()),
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } else {
                copyFromJar(location, into);
            }
            return into;
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot prepare the child-process classes: " + e.getMessage(), e);
        }
    }

    private static void copyFromJar(Path jar, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (entry.getName().startsWith(CHILD_PACKAGE) && entry.getName().endsWith(".class")) {
                    copy(in, into.resolve(entry.getName()));
                }
            }
        }
    }

    private static void copy(InputStream in, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A new temporary directory for one run's unpacked functions and files, deleted with {@link #deleteTree}. */
    public static Path createRunDir() {
        try {
            return Files.createTempDirectory("gpupipe-local-stack-");
        } catch (IOException e) {
            throw new StartupException("cannot create a temporary directory: " + e.getMessage(), e);
        }
    }

    /** Deletes a directory tree, best effort. */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
