package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.StackCloser.Stage;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.ComponentPackages;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.sam.LocalQueues;
import io.gpupipe.localstack.sam.SamTemplate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Starts the Lambda functions from their packages and their SQS event sources, each as sam-template.yaml wires it,
 * and hands each to the {@link StackCloser}.
 */
final class FunctionStarts {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final ComponentPackages packages;
    private final SamTemplate sam;
    private final Path childClasses;
    private final StackCloser closer;
    private final Console console;
    private final List<String> notes;

    /** {@code notes}: where a function that is not built says what the stack does without it. */
    FunctionStarts(ComponentPackages packages, SamTemplate sam, Path runDir, StackCloser closer, Console console,
                   List<String> notes) {
        this.packages = packages;
        this.sam = sam;
        this.closer = closer;
        this.console = console;
        this.notes = notes;
        this.childClasses = ComponentPackages.extractChildClasses(runDir.resolve("child-classes"));
    }

    /** The launcher's own classes the child processes (function hosts, workers) run with. */
    Path childClasses() {
        return childClasses;
    }

    /** A function with the memory and timeout sam-template.yaml gives its JVM package. */
    LambdaFunction.Spec spec(String module, Map<String, String> environment) {
        SamTemplate.Function function = sam.function(module);
        return new LambdaFunction.Spec(module, function.memoryMiB(), function.timeout(), environment);
    }

    LambdaFunction start(LambdaFunction.Spec spec, Path zip) {
        closer.ensureOpen();
        List<Path> classpath = packages.lambdaClasspath(spec.name(), zip);
        return closer.add(Stage.FUNCTIONS, LambdaFunction.start(spec, classpath, childClasses, packages.repo(),
                console), f -> f.stop(STOP_GRACE));
    }

    /**
     * {@code module} when its package is built; otherwise a note naming its {@code role} and saying what the stack
     * does {@code without} it.
     */
    Optional<LambdaFunction> startIfBuilt(String module, String role, Supplier<Map<String, String>> env,
                                          String without) {
        Optional<Path> zip = packages.functionZip(module);
        if (zip.isEmpty()) {
            notes.add(role + ": not built (functions/" + module + "/target/function.zip), " + without);
            return Optional.empty();
        }
        closer.ensureOpen();
        console.info("starting the " + module + " function");
        return Optional.of(start(spec(module, env.get()), zip.get()));
    }

    /** The function's one SQS event source as the template wires it (its queue and batch size). */
    SqsEventSource sqsEvents(String label, LambdaFunction function, String module, LocalAws aws) {
        List<SamTemplate.SqsSource> sources = sam.function(module).sqsSources();
        if (sources.size() != 1) {
            throw new StartupException("sam-template.yaml gives " + module + " " + sources.size()
                    + " SQS event sources; the local stack runs exactly one");
        }
        SamTemplate.SqsSource source = sources.get(0);
        return closer.add(Stage.EVENTS, SqsEventSource.start(label, function, aws, LocalQueues.of(source.queue()),
                console, source.batchSize()), SqsEventSource::close);
    }
}
