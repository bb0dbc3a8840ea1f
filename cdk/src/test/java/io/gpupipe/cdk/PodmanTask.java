package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One synthesized ECS task definition run by podman, translated field by field: the task's containers share one
 * network namespace (awsvpc mode) → one pod, whose slirp4netns network reaches the host's loopback at 10.0.2.2 (the
 * local SQS and S3); {@code Environment} → {@code --env}; {@code Command} → the arguments after the image (whose
 * entrypoint stays, as ECS keeps it); {@code HealthCheck} → {@code --health-cmd/-interval/-timeout/-retries/
 * -start-period}; {@code StopTimeout} → {@code --stop-timeout} and {@code podman stop -t}; {@code DependsOn HEALTHY} →
 * the dependent container starts only once the dependency's own health check passed. Not translated: GPUs and
 * memory reservations (no GPU here), the awslogs driver (podman keeps the logs), the image URIs (ECR; the caller
 * names a local image per container).
 */
final class PodmanTask implements AutoCloseable {
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);
    /** How often the test runs a container's health check while waiting (ECS: every Interval; see awaitHealthy). */
    private static final Duration HEALTH_POLL = Duration.ofMillis(250);

    private final String pod;
    private final Map<String, Map<String, Object>> containers = new LinkedHashMap<>();
    private final Map<String, String> images;
    private final BiFunction<String, Map<String, Object>, Map<String, String>> environment;
    private final Map<String, Map<Path, String>> files;
    private final Map<String, String> names = new LinkedHashMap<>();

    /**
     * @param definitions the task definition's ContainerDefinitions
     * @param images      the local image of each container name
     * @param environment a container's environment from its definition (resolving what a deployment resolves)
     * @param files       host files mounted read-only into a container (container name → host file → path in it):
     *                    what a deployment reads from elsewhere, such as a secret
     */
    PodmanTask(String name, List<Object> definitions, Map<String, String> images,
               BiFunction<String, Map<String, Object>, Map<String, String>> environment,
               Map<String, Map<Path, String>> files) {
        this.pod = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        definitions.stream().map(TemplateJson::map).forEach(c -> containers.put(String.valueOf(c.get("Name")), c));
        this.images = images;
        this.environment = environment;
        this.files = files;
    }

    /** Creates the pod and starts every container in dependency order, each once its dependencies are satisfied. */
    void start() {
        Podman.run(COMMAND_TIMEOUT, "pod", "create", "--name", pod, "--network",
                "slirp4netns:allow_host_loopback=true").orFail();
        List<String> pending = new ArrayList<>(containers.keySet());
        while (!pending.isEmpty()) {
            String next = pending.stream().filter(c -> dependencies(c).keySet().stream()
                    .noneMatch(pending::contains)).findFirst().orElseThrow(() -> new IllegalStateException(
                    "a dependency cycle among " + pending));
            dependencies(next).forEach((dependency, condition) -> {
                if (!"HEALTHY".equals(condition)) {
                    throw new IllegalStateException("condition " + condition + " is not translated yet");
                }
                awaitHealthy(dependency);
            });
            run(next);
            pending.remove(next);
        }
    }

    private Map<String, String> dependencies(String container) {
        Object dependsOn = containers.get(container).get("DependsOn");
        return dependsOn == null ? Map.of() : list(dependsOn).stream().map(TemplateJson::map).collect(
                Collectors.toMap(d -> String.valueOf(d.get("ContainerName")), d -> String.valueOf(d.get("Condition"))));
    }

    private void run(String container) {
        Map<String, Object> definition = containers.get(container);
        String name = pod + "-" + container;
        List<String> args = new ArrayList<>(List.of("run", "--detach", "--pod", pod, "--name", name));
        environment.apply(container, definition).forEach((key, value) -> args.addAll(List.of("--env",
                key + "=" + value)));
        files.getOrDefault(container, Map.of()).forEach((host, inside) -> args.addAll(List.of("--volume",
                host.toAbsolutePath() + ":" + inside + ":ro")));
        Map<String, Object> health = healthCheck(container);
        if (!health.isEmpty()) {
            args.addAll(List.of("--health-cmd", json(list(health.get("Command"))),
                    "--health-interval", seconds(health, "Interval", 30), "--health-timeout",
                    seconds(health, "Timeout", 5), "--health-retries", String.valueOf(health.getOrDefault("Retries",
                    3)), "--health-start-period", seconds(health, "StartPeriod", 0)));
        }
        args.addAll(List.of("--stop-timeout", String.valueOf(stopTimeout(container))));
        args.add(images.get(container));
        Object command = definition.get("Command");
        if (command != null) {
            list(command).forEach(a -> args.add(String.valueOf(a)));
        }
        Podman.run(COMMAND_TIMEOUT, args).orFail();
        names.put(container, name);
    }

    Map<String, Object> healthCheck(String container) {
        Object health = containers.get(container).get("HealthCheck");
        return health == null ? Map.of() : map(health);
    }

    int stopTimeout(String container) {
        // ECS's default when a container sets none (ECS_CONTAINER_STOP_TIMEOUT)
        return ((Number) containers.get(container).getOrDefault("StopTimeout", 30)).intValue();
    }

    /**
     * Waits until the container's own health check command passes, run inside it by {@code podman healthcheck run}
     * (podman's timer needs systemd, absent here). Polled every 250 ms rather than every Interval, which only makes
     * HEALTHY come sooner, bounded by what ECS tolerates: StartPeriod + Interval × Retries.
     */
    void awaitHealthy(String container) {
        Map<String, Object> health = healthCheck(container);
        Duration grace = Duration.ofSeconds(number(health, "StartPeriod", 0)
                + number(health, "Interval", 30) * number(health, "Retries", 3));
        String name = names.get(container);
        try {
            await(container + " HEALTHY").atMost(grace).pollDelay(Duration.ZERO).pollInterval(HEALTH_POLL)
                    .until(() -> Podman.run(COMMAND_TIMEOUT, "healthcheck", "run", name).exitCode() == 0);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(container + " was not HEALTHY within " + grace + "; its log:\n"
                    + logs(container), e);
        }
    }

    /** What ECS does on a stop for this container: SIGTERM, SIGKILL after its StopTimeout. Returns the exit code. */
    int stop(String container) {
        String name = names.get(container);
        Podman.run(Duration.ofSeconds(stopTimeout(container) + 60L), "stop", "-t",
                String.valueOf(stopTimeout(container)), name).orFail();
        return Integer.parseInt(Podman.run(COMMAND_TIMEOUT, "inspect", "--format", "{{.State.ExitCode}}", name)
                .orFail().output().trim());
    }

    String exec(String container, String... command) {
        List<String> args = new ArrayList<>(List.of("exec", names.get(container)));
        args.addAll(List.of(command));
        return Podman.run(COMMAND_TIMEOUT, args).output();
    }

    String logs(String container) {
        String name = names.get(container);
        return name == null ? "(not started)" : Podman.run(COMMAND_TIMEOUT, "logs", name).output();
    }

    @Override
    public void close() {
        Podman.run(COMMAND_TIMEOUT, "pod", "rm", "--force", pod);
    }

    private static long number(Map<String, Object> health, String key, long fallback) {
        Object value = health.get(key);
        return value == null ? fallback : ((Number) value).longValue();
    }

    private static String seconds(Map<String, Object> health, String key, long fallback) {
        return number(health, key, fallback) + "s";
    }

    private static String json(List<Object> command) {
        return command.stream().map(part -> "\"" + String.valueOf(part).replace("\\", "\\\\").replace("\"", "\\\"")
                + "\"").collect(Collectors.joining(", ", "[", "]"));
    }
}
