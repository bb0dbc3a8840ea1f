package io.gpupipe.localstack;

import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Console;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Entry point of the local stack: parses the flags, starts the {@link LocalStack}, prints the endpoints and examples,
 * and on SIGINT/SIGTERM stops everything in order and exits 0. A bad flag, a busy port, an unreadable model or a
 * component not built is one line on stderr and exit code 2.
 */
public final class Launcher {
    static final int EXIT_USAGE = 2;

    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), Console.system(), System.err));
    }

    /** Runs until the JVM is asked to stop (then halts with 0); returns only for help and errors. */
    static int run(String[] args, Map<String, String> env, Console console, PrintStream err) {
        LaunchOptionsParser.Outcome outcome = new LaunchOptionsParser(LaunchOptions.defaults(repo(),
                defaultCacheDir(env)), env).parse(args);
        if (outcome instanceof LaunchOptionsParser.Outcome.Help help) {
            System.out.print(help.usage());
            return 0;
        }
        if (outcome instanceof LaunchOptionsParser.Outcome.Invalid invalid) {
            err.println("local-stack: " + invalid.message());
            return EXIT_USAGE;
        }
        LaunchOptions options = ((LaunchOptionsParser.Outcome.Run) outcome).options();
        // the hook holds the closer, not the stack: a signal during the start stops what has started so far
        StackCloser closer = new StackCloser(console);
        CountDownLatch started = new CountDownLatch(1);
        Thread hook = new Thread(() -> stopOnSignal(closer, started, console), "local-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        LocalStack stack;
        try {
            stack = StackAssembler.start(options, console, StackOverrides.none(), closer);
        } catch (StartupException e) {
            removeHook(hook);
            err.println("local-stack: " + e.getMessage());
            return EXIT_USAGE;
        } catch (RuntimeException e) {
            removeHook(hook);
            err.println("local-stack: failed to start: " + e);
            return 1;
        }
        started.countDown();
        Duration readyIn = Duration.between(Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean()
                .getStartTime()), Instant.now());
        console.raw(Banner.render(stack, Banner.examples(stack.apiUri(), stack.aws(), Banner.ExampleIds.random(),
                stack.options().requireToken()),
                readyIn));
        console.info("ready");
        waitForever();
        return 0;
    }

    private static void stopOnSignal(StackCloser closer, CountDownLatch started, Console console) {
        console.info("stopping");
        closer.close();
        console.info("stopped");
        if (started.getCount() == 0) {
            // A requested stop of a running stack is a success, whatever signal asked for it.
            Runtime.getRuntime().halt(0);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down (stopped while starting): the hook is running
        }
    }

    private static void waitForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The repository root: {@code -Dgpupipe.repo}, else the nearest directory up from here with the router. */
    static Path repo() {
        String configured = System.getProperty("gpupipe.repo");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("functions/router")) && Files.isDirectory(dir.resolve("local-stack"))) {
                return dir;
            }
        }
        return Path.of("").toAbsolutePath();
    }

    static Path defaultCacheDir(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("gpupipe");
    }
}
