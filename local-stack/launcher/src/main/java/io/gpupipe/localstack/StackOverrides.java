package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * What a test (the chaos soak) changes in a stack beyond the command line: the SQS and S3 endpoints each component is
 * given (e.g. a fault-injecting proxy in front of the real ones), extra environment variables per component, the
 * queues' settings, the worker restart policy, and whether the start waits for the workers to be ready (not while a
 * test holds the model server loading, as a slow vLLM start would). Components are named as on the console:
 * {@code router}, {@code worker-small}, {@code worker-large}. {@link #none()} changes nothing.
 */
public record StackOverrides(BiFunction<String, URI, URI> sqsEndpoint, BiFunction<String, URI, URI> s3Endpoint,
                             Map<String, Map<String, String>> environment, UnaryOperator<LocalAwsOptions> localAws,
                             WorkerSupervisor.RestartPolicy restartPolicy, boolean awaitWorkers) {
    private static final String SQS_ENDPOINT = ComponentEnvironment.envName("quarkus.sqs.endpoint-override");
    private static final String S3_ENDPOINT = ComponentEnvironment.envName("quarkus.s3.endpoint-override");

    public StackOverrides {
        environment = Map.copyOf(environment);
    }

    public static StackOverrides none() {
        return new StackOverrides((component, uri) -> uri, (component, uri) -> uri, Map.of(), options -> options,
                WorkerSupervisor.RestartPolicy.defaults(), true);
    }

    /** Each component's SQS and S3 clients get the endpoint these functions answer for (component, real endpoint). */
    public StackOverrides withEndpoints(BiFunction<String, URI, URI> sqs, BiFunction<String, URI, URI> s3) {
        return new StackOverrides(sqs, s3, environment, localAws, restartPolicy, awaitWorkers);
    }

    /** Adds environment variables to one component's. */
    public StackOverrides withEnvironment(String component, Map<String, String> variables) {
        Map<String, Map<String, String>> all = new LinkedHashMap<>(environment);
        Map<String, String> merged = new LinkedHashMap<>(all.getOrDefault(component, Map.of()));
        merged.putAll(variables);
        all.put(component, Map.copyOf(merged));
        return new StackOverrides(sqsEndpoint, s3Endpoint, all, localAws, restartPolicy, awaitWorkers);
    }

    public StackOverrides withLocalAws(UnaryOperator<LocalAwsOptions> change) {
        return new StackOverrides(sqsEndpoint, s3Endpoint, environment, change, restartPolicy, awaitWorkers);
    }

    public StackOverrides withRestartPolicy(WorkerSupervisor.RestartPolicy policy) {
        return new StackOverrides(sqsEndpoint, s3Endpoint, environment, localAws, policy, awaitWorkers);
    }

    /** The start returns once the API answers, without waiting for the workers' readiness. */
    public StackOverrides withoutAwaitingWorkers() {
        return new StackOverrides(sqsEndpoint, s3Endpoint, environment, localAws, restartPolicy, false);
    }

    LocalAwsOptions localAws(LocalAwsOptions defaults) {
        return localAws.apply(defaults);
    }

    /** A component's environment with its endpoints replaced and its extra variables added. */
    Map<String, String> apply(String component, Map<String, String> env) {
        Map<String, String> result = new LinkedHashMap<>(env);
        result.computeIfPresent(SQS_ENDPOINT, (key, uri) -> sqsEndpoint.apply(component, URI.create(uri)).toString());
        result.computeIfPresent(S3_ENDPOINT, (key, uri) -> s3Endpoint.apply(component, URI.create(uri)).toString());
        result.putAll(environment.getOrDefault(component, Map.of()));
        return result;
    }
}
