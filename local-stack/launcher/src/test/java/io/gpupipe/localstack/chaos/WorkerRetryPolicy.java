package io.gpupipe.localstack.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The worker's calls to the model per delivery, read from where its retry policy defines it: the default of
 * {@code gpupipe.worker.retry.max-calls} ({@code @WithDefault} on {@code WorkerConfig.Retry#maxCalls}) in the
 * packaged worker the stack runs ({@code gpu-worker/target/quarkus-app}), so the soak never copies the number. The
 * worker's classes are not on this module's classpath (the launcher runs the package), hence the class loader.
 */
public final class WorkerRetryPolicy {
    static final String CONFIG_CLASS = "io.gpupipe.worker.WorkerConfig$Retry";
    static final String PROPERTY_METHOD = "maxCalls";
    private static final String WITH_DEFAULT = "io.smallrye.config.WithDefault";

    private WorkerRetryPolicy() {
    }

    /** The packaged worker's default model calls per delivery. */
    public static int callsPerDelivery(Path repo) {
        Path app = repo.resolve("gpu-worker/target/quarkus-app");
        try (URLClassLoader loader = new URLClassLoader(urls(app.resolve("app"), app.resolve("lib/main")),
                ClassLoader.getPlatformClassLoader())) {
            Method property = loader.loadClass(CONFIG_CLASS).getMethod(PROPERTY_METHOD);
            @SuppressWarnings("unchecked")
            Class<? extends Annotation> withDefault = (Class<? extends Annotation>) loader.loadClass(WITH_DEFAULT);
            Annotation annotation = property.getAnnotation(withDefault);
            if (annotation == null) {
                throw new IllegalStateException(CONFIG_CLASS + "#" + PROPERTY_METHOD + " has no @WithDefault");
            }
            return Integer.parseInt((String) withDefault.getMethod("value").invoke(annotation));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the packaged worker in " + app, e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the packaged worker in " + app + " does not define "
                    + CONFIG_CLASS + "#" + PROPERTY_METHOD + " as expected", e);
        }
    }

    private static URL[] urls(Path... directories) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (Path directory : directories) {
            try (Stream<Path> jars = Files.list(directory)) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                    urls.add(toUrl(jar));
                }
            }
        }
        return urls.toArray(URL[]::new);
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(jar.toString(), e);
        }
    }
}
