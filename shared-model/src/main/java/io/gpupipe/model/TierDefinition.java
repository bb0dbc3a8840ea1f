package io.gpupipe.model;

import io.gpupipe.model.sizing.GpuShare;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One tier of {@link TierCatalogue}: everything the router, worker, scaling metric, local stack, SAM and CDK need to
 * know about it. The model it serves (weights, footprint) belongs to the CDK app and native-build, not here.
 *
 * @param tier              the tier's name (in the API's {@code route}, results, metrics and resource names)
 * @param queue             the SQS queue name (the local stack's queue; SAM's {@code <Name>Queue} resource)
 * @param contract          which API the tier's model server speaks
 * @param serves            the tasks routed to this tier (each must be one its contract can run)
 * @param modelTimeout      the worker's time budget for one job's inference (all calls and retries of a delivery)
 * @param visibilityTimeout the queue's visibility timeout (above the worst-case job)
 * @param gpus              GPUs per task as ECS takes them ("0.125", "0.25", "0.5" or whole "1"-"16")
 * @param gpuMemoryMiB      minimum memory of each GPU an instance may have (attribute-based selection)
 * @param taskCpu           task CPU units (1024 = 1 vCPU)
 * @param taskMemoryMiB     task memory
 * @param maxTasks          most tasks of the tier (scaling metric ceiling, SAM's default MaxTasks)
 * @param backlogPerTask    waiting jobs one task should face before another is wanted
 * @param maxScaleOutStep   most tasks one scale-out adds
 * @param scaleInAfter      how long the tier must want fewer tasks before one is removed
 * @param modelLoadGrace    longest expected model load: the model server's health check grace
 * @param cacheByDefault    whether the tier's deterministic jobs use the result cache when they do not say
 *                          ({@code cache} absent); false unless the catalogue says so
 */
public record TierDefinition(
        Tier tier,
        String queue,
        ModelServerContract contract,
        Set<Task> serves,
        Duration modelTimeout,
        Duration visibilityTimeout,
        GpuShare gpus,
        long gpuMemoryMiB,
        int taskCpu,
        int taskMemoryMiB,
        int maxTasks,
        double backlogPerTask,
        int maxScaleOutStep,
        Duration scaleInAfter,
        Duration modelLoadGrace,
        boolean cacheByDefault) {

    public TierDefinition {
        Objects.requireNonNull(tier, "tier");
        String name = tier.wireName();
        require(queue != null && !queue.isBlank(), name, "queue is required");
        require(contract != null, name, "contract is required (one of text, speech)");
        require(serves != null && !serves.isEmpty(), name, "serves must name at least one task");
        serves = Set.copyOf(serves);
        for (Task task : serves) {
            require(contract.canRun(task), name, "a " + contract.name().toLowerCase(java.util.Locale.ROOT)
                    + " model server cannot run " + task.wireName() + " jobs");
        }
        require(modelTimeout != null && !modelTimeout.isNegative() && !modelTimeout.isZero(), name,
                "modelTimeoutSeconds must be > 0");
        // heartbeats extend a running job's visibility, so it need not exceed the model timeout; SQS allows 0-43200 s
        require(visibilityTimeout != null && visibilityTimeout.toSeconds() >= 30
                && visibilityTimeout.toSeconds() <= 43_200, name, "visibilityTimeoutSeconds must be 30-43200");
        Objects.requireNonNull(gpus, "gpus");
        require(gpuMemoryMiB > 0, name, "gpuMemoryMiB must be > 0");
        require(taskCpu >= 256 && taskMemoryMiB >= 512, name, "a task needs >= 256 CPU units and >= 512 MiB");
        require(maxTasks >= 1, name, "maxTasks must be >= 1");
        require(backlogPerTask > 0, name, "backlogPerTask must be > 0");
        require(maxScaleOutStep >= 1, name, "maxScaleOutStep must be >= 1");
        require(scaleInAfter != null && scaleInAfter.toMinutes() >= 1, name, "scaleInAfterMinutes must be >= 1");
        require(modelLoadGrace != null && modelLoadGrace.toMinutes() >= 1, name,
                "modelLoadGraceMinutes must be >= 1");
    }

    /** A tier whose jobs use the result cache only when they ask for it. */
    public TierDefinition(Tier tier, String queue, ModelServerContract contract, Set<Task> serves,
                          Duration modelTimeout, Duration visibilityTimeout, GpuShare gpus, long gpuMemoryMiB,
                          int taskCpu, int taskMemoryMiB, int maxTasks, double backlogPerTask, int maxScaleOutStep,
                          Duration scaleInAfter, Duration modelLoadGrace) {
        this(tier, queue, contract, serves, modelTimeout, visibilityTimeout, gpus, gpuMemoryMiB, taskCpu,
                taskMemoryMiB, maxTasks, backlogPerTask, maxScaleOutStep, scaleInAfter, modelLoadGrace, false);
    }

    /** True when jobs of {@code task} may be routed to this tier. */
    public boolean serves(Task task) {
        return serves.contains(task);
    }

    /** The tier's tasks in declaration order of {@link Task}. */
    public List<Task> servedTasks() {
        return java.util.Arrays.stream(Task.values()).filter(serves::contains).toList();
    }

    /** This tier's settings under another name, with the queue {@code gpupipe-<name>} (a new tier's starting point). */
    public TierDefinition renamed(String name) {
        return new TierDefinition(Tier.of(name), "gpupipe-" + name, contract, serves, modelTimeout, visibilityTimeout,
                gpus, gpuMemoryMiB, taskCpu, taskMemoryMiB, maxTasks, backlogPerTask, maxScaleOutStep, scaleInAfter,
                modelLoadGrace, cacheByDefault);
    }

    /** A copy with another model timeout. */
    public TierDefinition withModelTimeout(Duration timeout) {
        return new TierDefinition(tier, queue, contract, serves, timeout, visibilityTimeout, gpus, gpuMemoryMiB,
                taskCpu, taskMemoryMiB, maxTasks, backlogPerTask, maxScaleOutStep, scaleInAfter, modelLoadGrace,
                cacheByDefault);
    }

    /** A copy with another task ceiling. */
    public TierDefinition withMaxTasks(int tasks) {
        return new TierDefinition(tier, queue, contract, serves, modelTimeout, visibilityTimeout, gpus, gpuMemoryMiB,
                taskCpu, taskMemoryMiB, tasks, backlogPerTask, maxScaleOutStep, scaleInAfter, modelLoadGrace,
                cacheByDefault);
    }

    /** A copy whose deterministic jobs use the result cache by default ({@code cacheByDefault}). */
    public TierDefinition withCacheByDefault(boolean byDefault) {
        return new TierDefinition(tier, queue, contract, serves, modelTimeout, visibilityTimeout, gpus, gpuMemoryMiB,
                taskCpu, taskMemoryMiB, maxTasks, backlogPerTask, maxScaleOutStep, scaleInAfter, modelLoadGrace,
                byDefault);
    }

    private static void require(boolean ok, String tier, String message) {
        if (!ok) {
            throw new IllegalArgumentException("tier " + tier + ": " + message);
        }
    }
}
