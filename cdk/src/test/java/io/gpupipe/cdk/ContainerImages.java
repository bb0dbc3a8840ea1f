package io.gpupipe.cdk;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpupipe.model.JobJson;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.standin.VllmStandInMain;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The two images of a tier's task, built locally on {@link Podman#BASE_IMAGE}: the worker by
 * native-build/Dockerfile.worker-jvm itself (its FROM replaced by the base: {@code podman build --from}), and the
 * model-server stand-in: the vLLM stand-in's classes behind a {@code vllm} shim, entrypoint {@code vllm serve} as the
 * real image (native-build/Dockerfile.model-server), with the served weights paths present (empty: no weights here).
 */
record ContainerImages(String worker, String modelServer) {
    static final String WORKER = "localhost/gpupipe-worker:test";
    static final String MODEL_SERVER = "localhost/gpupipe-model-server-standin:test";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(8);
    /** The stand-in's classes and what they need at run time (shared-model, Jackson). */
    private static final List<Class<?>> STAND_IN_CLASSPATH = List.of(VllmStandIn.class, JobJson.class,
            ObjectMapper.class, JsonParser.class, JsonInclude.class, JavaTimeModule.class);

    /** Builds both images; {@code servedPaths} are the model servers' weights paths. */
    static ContainerImages build(Path workDir, List<String> servedPaths) {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        Path app = repository.resolve("gpu-worker/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(app)) {
            throw new IllegalStateException(app + " is missing: package gpu-worker first (-pl cdk -am does)");
        }
        Podman.run(BUILD_TIMEOUT, "build", "--from", Podman.BASE_IMAGE, "--file",
                repository.resolve("native-build/Dockerfile.worker-jvm").toString(), "--tag", WORKER,
                repository.toString()).orFail();
        Podman.run(BUILD_TIMEOUT, "build", "--tag", MODEL_SERVER, standInContext(workDir.resolve("model-server"),
                servedPaths).toString()).orFail();
        return new ContainerImages(WORKER, MODEL_SERVER);
    }

    /** The image of each container name of the task definition. */
    Map<String, String> byContainer() {
        return Map.of("gpu-worker", worker, "model-server", modelServer);
    }

    private static Path standInContext(Path context, List<String> servedPaths) {
        try {
            Files.createDirectories(context.resolve("lib"));
            try (Stream<Path> old = Files.list(context.resolve("lib"))) {
                for (Path jar : old.toList()) {
                    Files.delete(jar);
                }
            }
            int n = 0;
            for (Class<?> type : STAND_IN_CLASSPATH) {
                Path source = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path target = context.resolve("lib").resolve(n++ + "-" + source.getFileName() + (Files.isDirectory(
                        source) ? ".jar" : ""));
                if (Files.isDirectory(source)) {
                    jar(source, target);
                } else {
                    Files.copy(source, target);
                }
            }
            Files.writeString(context.resolve("vllm"), "#!/bin/sh\n"
                    + "# stand-in for vLLM's CLI: 'vllm serve <model> <flags>' runs the vLLM stand-in\n"
                    + "[ \"$1\" = serve ] && shift\n"
                    + "exec java -cp '/opt/standin/lib/*' " + VllmStandInMain.class.getName() + " \"$@\"\n");
            Files.writeString(context.resolve("Dockerfile"), "FROM " + Podman.BASE_IMAGE + "\n"
                    + "COPY lib/ /opt/standin/lib/\n"
                    + "COPY --chmod=755 vllm /usr/local/bin/vllm\n"
                    + "RUN mkdir -p " + String.join(" ", servedPaths) + "\n"
                    + "EXPOSE 8000\n"
                    + "ENTRYPOINT [\"vllm\", \"serve\"]\n");
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A class directory (a reactor module's target/classes) as a jar. */
    private static void jar(Path classes, Path target) throws IOException {
        try (OutputStream out = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                jar.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, jar);
                jar.closeEntry();
            }
        }
    }
}
