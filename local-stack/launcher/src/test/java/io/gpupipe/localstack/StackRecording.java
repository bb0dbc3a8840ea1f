package io.gpupipe.localstack;

import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.internal.WorkerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * Java Flight Recordings of a local stack over a benchmark's measured interval, for finding hot methods: this JVM
 * (ElasticMQ, S3Proxy, the facade, the stand-in) through the JFR API, every child JVM through {@code jcmd JFR.start}
 * / {@code JFR.dump}. Written to {@code dir} as {@code <component>.jfr}; read them with {@code jfr print --events
 * jdk.ExecutionSample} or {@code jfr summary}. Off unless a benchmark is given a directory.
 */
final class StackRecording implements AutoCloseable {
    private static final String NAME = "gpupipe-benchmark";

    private final Path dir;
    private final Map<String, Long> children;
    private final Recording self;

    private StackRecording(Path dir, Map<String, Long> children, Recording self) {
        this.dir = dir;
        this.children = children;
        this.self = self;
    }

    static StackRecording start(LocalStack stack, Path dir) throws IOException, ParseException {
        Files.createDirectories(dir);
        Map<String, Long> children = new LinkedHashMap<>();
        List<LambdaFunction> functions = new ArrayList<>();
        functions.add(stack.functions().router());
        stack.functions().notifier().ifPresent(functions::add);
        functions.forEach(f -> children.put(f.name(), f.process().pid()));
        stack.workers().forEach((tier, w) -> children.put(WorkerProcess.name(tier), w.process().pid()));
        children.forEach((name, pid) -> jcmd(pid, "JFR.start", "name=" + NAME, "settings=profile"));
        Recording self = new Recording(Configuration.getConfiguration("profile"));
        self.start();
        return new StackRecording(dir, children, self);
    }

    @Override
    public void close() throws IOException {
        self.stop();
        self.dump(dir.resolve("launcher.jfr"));
        self.close();
        children.forEach((name, pid) -> jcmd(pid, "JFR.dump", "name=" + NAME,
                "filename=" + dir.resolve(name + ".jfr").toAbsolutePath()));
        System.out.println("  flight recordings in " + dir.toAbsolutePath());
    }

    private static void jcmd(long pid, String... command) {
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd")
                .toString(), Long.toString(pid)));
        args.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect
                    .DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.out.println("  jcmd " + pid + " " + command[0] + " did not finish in 60 s");
            }
        } catch (IOException e) {
            System.out.println("  jcmd " + pid + " " + command[0] + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
