package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.Tier;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack keeps its workers running as an ECS service does: a worker killed with SIGKILL (not by the stack)
 * is replaced, the console says so, and its tier keeps consuming; the stack's own shutdown is not mistaken for a
 * death.
 */
class WorkerSupervisionTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path cache;

    @Test
    void killedWorker_shouldBeRestarted_andItsTierKeepConsuming() throws InterruptedException {
        RequiredPackages.assertBuilt();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new TeeStream(System.out, output), true, StandardCharsets.UTF_8);
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withWorkers(Set.of(Tier.of("speech")));
        StackOverrides overrides = StackOverrides.none().withRestartPolicy(new WorkerSupervisor.RestartPolicy(
                Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(60), LIMIT));
        try (LocalStack stack = StackAssembler.start(options, new Console(tee), overrides)) {
            ApiClient api = new ApiClient(stack.apiUri());
            WorkerProcess first = stack.workers().get(Tier.of("speech"));

            // when
            ProcessHandle.of(first.process().pid()).orElseThrow().destroyForcibly();
            long killedAt = System.nanoTime();

            // then
            WorkerSupervisor supervisor = stack.workerSupervisors().get(Tier.of("speech"));
            awaitRestartedAndReady(output, first);
            assertThat(supervisor.restarts()).isEqualTo(1);
            assertThat(supervisor.current().process().pid()).isNotEqualTo(first.process().pid());
            assertThat(output.toString(StandardCharsets.UTF_8))
                    .contains(WorkerProcess.name(Tier.of("speech")) + " (pid " + first.process().pid() + ") exited with code")
                    .contains(WorkerProcess.name(Tier.of("speech")) + " restarted (pid ");
            // A long poll the killed process had open may still be pending on the queue (up to the worker's 20 s
            // wait time); a message it takes stays invisible for the 300 s visibility timeout, as on SQS. Submit
            // once that poll has surely ended, so the job is the restarted worker's to take. A fixed wait on purpose:
            // nothing outside ElasticMQ shows a receive still open for a process that is gone.
            Thread.sleep(Math.max(0, Duration.ofSeconds(22).toMillis()
                    - Duration.ofNanos(System.nanoTime() - killedAt).toMillis()));
            String id = UUID.randomUUID().toString();
            assertThat(api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"After the "
                    + "restart.\"}").status()).isEqualTo(202);
            JsonNode result = api.awaitTerminal(id, LIMIT);
            assertThat(result.path("status").asText()).isEqualTo("succeeded");
        }
        assertThat(output.toString(StandardCharsets.UTF_8)).containsOnlyOnce("exited with code");
    }

    private static void awaitRestartedAndReady(ByteArrayOutputStream output, WorkerProcess first) {
        String name = WorkerProcess.name(Tier.of("speech"));
        await(name + " (pid " + first.process().pid() + ") restarted and ready").atMost(LIMIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).until(() -> {
                    String text = output.toString(StandardCharsets.UTF_8);
                    int restarted = text.indexOf(name + " restarted (pid ");
                    return restarted >= 0 && text.indexOf(") is ready again", restarted) >= 0;
                });
    }
}
