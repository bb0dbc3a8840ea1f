package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.chaos.FaultProxy;
import io.gpupipe.localstack.chaos.Faults;
import io.gpupipe.localstack.chaos.Scenario;
import io.gpupipe.localstack.chaos.SoakClient;
import io.gpupipe.localstack.chaos.SoakJob;
import io.gpupipe.localstack.chaos.SoakJobs;
import io.gpupipe.localstack.chaos.SoakSettings;
import io.gpupipe.localstack.chaos.SoakVerdict;
import io.gpupipe.localstack.chaos.WorkerRetryPolicy;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.ComponentPackages;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.testsupport.CallbackReceiver;
import io.gpupipe.worker.standin.VllmStandIn;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The chaos soak: N jobs through the whole local pipeline (the packaged router behind the HTTP API, ElasticMQ,
 * S3Proxy, the result notifier, two supervised worker processes with the openai backend against the vLLM stand-in),
 * one {@link Scenario} of faults at a time and then all together; then, once quiet, the invariants of
 * {@link SoakVerdict} over every requestId, a table per scenario, and a failure on any lost, duplicated or stuck job.
 * The short variant runs in the normal test phase; {@code ./mvnw -B -Pchaos -pl local-stack/launcher -am verify}
 * runs 10,000 jobs in real time ({@code -Dchaos.jobs=N}, {@code -Dchaos.time-scale=F}).
 */
class LocalStackChaosSoakTest {
    @TempDir
    Path cache;

    private static final Pattern UUID_IN_KEY = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private final Map<String, SoakJob> jobs = new ConcurrentHashMap<>();
    /**
     * The client's id of each job submitted over the API, by the id it is stored under (S3 keys, messages): the API's
     * anonymous caller's derived id ({@link JobIds}).
     */
    private final Map<String, String> clientIds = new ConcurrentHashMap<>();
    private final Map<String, Scenario> malformedTags = new ConcurrentHashMap<>();
    private final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    private volatile boolean deadLetterRunning;

    @Test
    void soak_shouldEndEveryAcceptedJobWithExactlyOneResult_whenFaultsAreInjected() throws Exception {
        RequiredPackages.assertBuilt();
        SoakSettings settings = SoakSettings.fromSystemProperties();
        say("CHAOS SOAK: " + settings.describe());
        Map<String, FaultProxy> proxies = new ConcurrentHashMap<>();
        try {
            soak(settings, proxies);
        } finally {
            proxies.values().forEach(FaultProxy::close);
        }
    }

    private void soak(SoakSettings settings, Map<String, FaultProxy> proxies) throws Exception {
        try (VllmStandIn model = VllmStandIn.start(VllmStandIn.Settings.defaults().withMaxSequences(16));
             FaultProxy modelProxy = FaultProxy.start("model-server", model.url());
             CallbackReceiver receiver = CallbackReceiver.verifying(ComponentEnvironment.CALLBACK_SECRET);
             FaultProxy webhookProxy = FaultProxy.start("webhook-receiver", receiver.base());
             LocalStack stack = StackAssembler.start(options(modelProxy.uri(model.url())), quietConsole(),
                     overrides(settings, proxies))) {
            say(deadLetterHandler());
            stack.aws().onObjectCreated((bucket, key, size, eTag) -> JobLayout.requestIdOfResultKey(key)
                    .map(id -> jobs.get(clientIds.getOrDefault(id, id)))
                    .ifPresent(job -> job.resultWritten(System.nanoTime())));
            Faults faults = new Faults(stack, new Faults.Proxies(proxies.get("router-sqs"), proxies.get("router-s3"),
                    proxies.get("worker-sqs"), proxies.get("worker-s3"), modelProxy, webhookProxy), model, settings,
                    this::say);
            try (SqsClient sqs = stack.aws().newSqsClient(); var s3 = stack.aws().newS3Client()) {
                SoakClient client = new SoakClient(stack.apiUri(), sqs, Duration.ofMinutes(5));
                long start = System.nanoTime();
                String callbackBase = "http://localhost:" + webhookProxy.port();
                runScenarios(settings, stack, faults, client, callbackBase);
                boolean quiet = settle(settings, sqs, stack.aws());
                SoakVerdict.Callbacks callbacks = SoakVerdict.Callbacks.of(receiver);
                awaitCallbacks(settings, callbacks);
                say(String.format("all scenarios and settling took %.0f s", (System.nanoTime() - start) / 1e9));
                boolean idle = quiet && queuesIdle(sqs, stack.aws());
                SoakVerdict.RetryBound retryBound = new SoakVerdict.RetryBound(
                        WorkerRetryPolicy.callsPerDelivery(TestPaths.repo()), stack.aws().maxReceiveCount());
                say("retry bound: " + retryBound.callsPerDelivery() + " model calls per delivery (the packaged "
                        + "worker's default), " + retryBound.maxReceiveCount() + " receives per message");
                SoakVerdict verdict = SoakVerdict.of(jobs.values(), new SoakVerdict.Evidence(
                        storedKeys(SoakVerdict.Storage.s3(s3, stack.aws().bucket())), client::status, model.completionPrompts(),
                        model.generatedPrompts(), callbacks, readDeadLetters(stack, sqs), malformedTags, retryBound,
                        idle));
                proxies.put("model-server", modelProxy);
                proxies.put("webhook-receiver", webhookProxy);
                report(settings, verdict, stack, proxies);
                assertThat(verdict.broken()).as("lost, duplicated or stuck jobs (see the table and findings)")
                        .isFalse();
            }
        }
    }

    /**
     * One router execution environment: the local stack runs its environments as threads of one host process, so
     * the die-after-marker hook (which halts the process) would kill every invocation in flight at once; on Lambda
     * it kills only its own environment's invocation.
     */
    private LaunchOptions options(URI modelServer) {
        return new LaunchOptions(0, 0, 0, null, null, false, LaunchOptions.DEFAULT_TEXT_MODEL_URL,
                LaunchOptions.DEFAULT_TEXT_MODEL_SHA256, cache, Backend.OPENAI, modelServer,
                new LinkedHashSet<>(TierCatalogue.bundled().names()), Duration.ofSeconds(5), TestPaths.repo())
                .withRouterConcurrency(1);
    }

    /** Every component reaches SQS and S3 through a proxy of its own role; short queue and retry timings. */
    private static StackOverrides overrides(SoakSettings settings, Map<String, FaultProxy> proxies) {
        Map<String, String> worker = new HashMap<>(Map.of(
                "GPUPIPE_WORKER_WAIT_TIME", "5s",
                "GPUPIPE_WORKER_DRAIN_GRACE", "10s",
                "GPUPIPE_WORKER_RETRY_INITIAL_BACKOFF", "100ms",
                "GPUPIPE_WORKER_RETRY_MAX_BACKOFF", "1s",
                "GPUPIPE_WORKER_RETRY_REQUEUE_DELAY", "1s",
                "GPUPIPE_WORKER_RETRY_MAX_REQUEUE_DELAY", "5s"));
        TierCatalogue.bundled().names().forEach(tier -> worker.put("GPUPIPE_WORKER_MODEL_TIMEOUT_" + tier.envName(),
                "60s"));
        StackOverrides overrides = StackOverrides.none()
                .withEndpoints((component, uri) -> proxy(proxies, component, "sqs", uri),
                        (component, uri) -> proxy(proxies, component, "s3", uri))
                .withEnvironment("router", Map.of("GPUPIPE_ROUTER_FAULT_DIE_AFTER_MARKER_RATIO",
                        Double.toString(settings.routerDieRatio())))
                .withLocalAws(aws -> aws.withVisibilityTimeouts(Faults.visibilityTimeouts()))
                .withRestartPolicy(new WorkerSupervisor.RestartPolicy(Duration.ofMillis(500), Duration.ofSeconds(5),
                        Duration.ofSeconds(30), Duration.ofMinutes(5)));
        for (Tier tier : TierCatalogue.bundled().names()) {
            overrides = overrides.withEnvironment(WorkerProcess.name(tier), worker);
        }
        return overrides;
    }

    private static URI proxy(Map<String, FaultProxy> proxies, String component, String service, URI real) {
        String role = (component.startsWith("worker") ? "worker" : component) + "-" + service;
        return proxies.computeIfAbsent(role, name -> FaultProxy.start(name, real)).uri(real);
    }

    private void runScenarios(SoakSettings settings, LocalStack stack, Faults faults, SoakClient client,
                              String callbackBase) throws Exception {
        Duration window = settings.scaled(Duration.ofSeconds(80));
        int perScenario = Math.max(5, settings.jobs() / Scenario.values().length);
        ExecutorService clients = Executors.newFixedThreadPool(settings.clients());
        ExecutorService racers = Executors.newCachedThreadPool();
        try {
            for (Scenario scenario : Scenario.values()) {
                say("scenario " + scenario.label() + ": " + scenario.description() + " (" + perScenario
                        + " jobs over " + window.toSeconds() + " s)");
                Thread faultThread = new Thread(() -> faults.inject(scenario, window), "faults-" + scenario.label());
                faultThread.start();
                List<Future<?>> submissions = load(scenario, perScenario, window, clients, racers, client,
                        callbackBase, stack.aws());
                for (Future<?> submission : submissions) {
                    submission.get();
                }
                faultThread.join();
                awaitScenario(scenario, settings);
            }
        } finally {
            clients.shutdownNow();
            racers.shutdownNow();
        }
    }

    private List<Future<?>> load(Scenario scenario, int count, Duration window, ExecutorService clients,
                                 ExecutorService racers, SoakClient client, String callbackBase, LocalAws aws) {
        boolean duplicates = scenario == Scenario.DUPLICATES || scenario == Scenario.ALL;
        List<Future<?>> submissions = new ArrayList<>();
        long start = System.nanoTime();
        long pace = window.toNanos() / count;
        for (int i = 0; i < count; i++) {
            SoakClient.sleepUntil(start + i * pace);
            String id = SoakJobs.newId();
            SoakJob job = new SoakJob(id, scenario, false, true);
            jobs.put(id, job);
            clientIds.put(JobIds.stored(aws.ownerIds().of(CallerIdentity.ANONYMOUS), id), id);
            boolean slow = (scenario == Scenario.VISIBILITY_LAPSE || scenario == Scenario.ALL) && i < Faults.SLOW_JOBS;
            String body = SoakJobs.job(id, i, callbackBase + hookPath(id), slow);
            String queue = aws.queueUrl(i % 5 == 4 ? LocalAws.ESCALATION_QUEUE : LocalAws.DEFAULT_TEXT_QUEUE);
            boolean racing = duplicates && (scenario == Scenario.DUPLICATES || i % 3 == 0);
            boolean cancel = racing && i % 3 == 0;
            submissions.add(clients.submit(() -> {
                if (!racing) {
                    client.submit(job, body);
                    return;
                }
                List<Future<?>> same = new ArrayList<>();
                for (int copy = 0; copy < 3; copy++) {
                    same.add(racers.submit(() -> client.submit(job, body)));
                }
                awaitAll(same);
                if (cancel) {
                    client.cancel(job);
                }
                if (job.owed()) {
                    // the same job as the router stored and sealed it, so that it is a second delivery, not another job
                    client.sendSealed(queue, SoakJobs.asStored(body, aws.ownerIds().of(CallerIdentity.ANONYMOUS)),
                            aws.messageSeal());
                    job.copied();
                }
            }));
        }
        if (scenario == Scenario.POISON || scenario == Scenario.ALL) {
            submissions.add(clients.submit(() -> poison(scenario, client, aws)));
        }
        return submissions;
    }

    private void poison(Scenario scenario, SoakClient client, LocalAws aws) {
        for (String queue : List.of(LocalAws.DEFAULT_TEXT_QUEUE, LocalAws.ESCALATION_QUEUE)) {
            String tag = "poison-tag-" + SoakJobs.newId();
            malformedTags.put(tag, scenario);
            client.sendToQueue(aws.queueUrl(queue), SoakJobs.malformed(tag));
        }
        SoakJob oversized = new SoakJob(SoakJobs.newId(), scenario, true, false);
        SoakJob unknownTask = new SoakJob(SoakJobs.newId(), scenario, true, false);
        for (SoakJob job : List.of(oversized, unknownTask)) {
            job.submitted(System.nanoTime());
            jobs.put(job.requestId(), job);
            // a producer's job: stored under the id derived from the queue owner and its requestId
            clientIds.put(JobIds.stored(Owner.QUEUE, job.requestId()), job.requestId());
        }
        client.sendToQueue(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE), SoakJobs.oversized(oversized.requestId()));
        client.sendToQueue(aws.queueUrl(LocalAws.ESCALATION_QUEUE), SoakJobs.unknownTask(unknownTask.requestId()));
    }

    /** Reads an API job's objects under the id it is stored under ({@code storage} is asked by client ids). */
    private SoakVerdict.Storage storedKeys(SoakVerdict.Storage storage) {
        Map<String, String> storedIds = new HashMap<>();
        clientIds.forEach((stored, client) -> storedIds.put(client, stored));
        return key -> {
            Matcher id = UUID_IN_KEY.matcher(key);
            return storage.read(id.find() && storedIds.containsKey(id.group())
                    ? key.replace(id.group(), storedIds.get(id.group())) : key);
        };
    }

    private static void awaitAll(List<Future<?>> futures) {
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Until the scenario's jobs are all settled, or nothing settled for a while. */
    private void awaitScenario(Scenario scenario, SoakSettings settings) {
        Duration stall = settings.scaled(Duration.ofSeconds(150));
        long lastProgress = System.nanoTime();
        long settled = -1;
        while (System.nanoTime() - lastProgress < stall.toNanos()) {
            List<SoakJob> mine = jobs.values().stream().filter(j -> j.scenario() == scenario && j.owed()).toList();
            long now = mine.stream().filter(SoakJob::settled).count();
            if (now == mine.size()) {
                return;
            }
            if (now != settled) {
                settled = now;
                lastProgress = System.nanoTime();
            }
            SoakClient.sleep(250);
        }
        say("scenario " + scenario.label() + ": moving on with " + jobs.values().stream()
                .filter(j -> j.scenario() == scenario && j.owed() && !j.settled()).count() + " jobs unsettled");
    }

    /**
     * Quiescence: every job settled, or the tier queues empty (nothing in flight) and no result for 10 s; false when
     * the settle limit passed first.
     */
    private boolean settle(SoakSettings settings, SqsClient sqs, LocalAws aws) {
        long deadline = System.nanoTime() + settings.settleLimit().toNanos();
        long quietSince = System.nanoTime();
        long settled = -1;
        while (System.nanoTime() < deadline) {
            long now = jobs.values().stream().filter(j -> !j.owed() || j.settled()).count();
            if (now == jobs.size()) {
                return true;
            }
            if (now != settled || !queuesIdle(sqs, aws)) {
                settled = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > Duration.ofSeconds(10).toNanos()) {
                return true;
            }
            SoakClient.sleep(500);
        }
        say("settle limit " + settings.settleLimit().toSeconds() + " s reached");
        return false;
    }

    private static boolean queuesIdle(SqsClient sqs, LocalAws aws) {
        for (String queue : List.of(LocalAws.DEFAULT_TEXT_QUEUE, LocalAws.ESCALATION_QUEUE)) {
            Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(aws.queueUrl(queue))
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
            if (attributes.values().stream().anyMatch(v -> !"0".equals(v))) {
                return false;
            }
        }
        return true;
    }

    /** The callbackUrl path for a job, appended to the webhook receiver's proxy. */
    private static String hookPath(String requestId) {
        return "/hook/" + requestId;
    }

    /** Waits (bounded) until every job with a result and a callbackUrl was called back at least once. */
    private void awaitCallbacks(SoakSettings settings, SoakVerdict.Callbacks callbacks) {
        long deadline = System.nanoTime() + settings.settleLimit().dividedBy(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (jobs.values().stream().noneMatch(j -> j.callback() && j.resultWrites() > 0
                    && callbacks.signed(j.requestId()).isEmpty())) {
                return;
            }
            SoakClient.sleep(500);
        }
    }

    /**
     * Every message in the DLQ, including those in flight: the dead-letter function keeps messages it cannot attribute
     * as batch item failures, so at any moment some are invisible, not gone. Its event source is stopped first, then
     * the soak waits (bounded by the DLQ's visibility timeout) until nothing is in flight, and reads every message,
     * hidden (not deleted) while read so that each is seen once. Whatever is still in flight is counted as unread.
     */
    private SoakVerdict.DeadLetters readDeadLetters(LocalStack stack, SqsClient sqs) {
        stack.events().dlq().ifPresent(SqsEventSource::close);
        String dlq = stack.aws().queueUrl(LocalAws.DLQ);
        int visibilitySeconds = Integer.parseInt(dlqAttribute(sqs, dlq, QueueAttributeName.VISIBILITY_TIMEOUT));
        long deadline = System.nanoTime() + Duration.ofSeconds(visibilitySeconds + 10L).toNanos();
        while (inFlight(sqs, dlq) > 0 && System.nanoTime() < deadline) {
            SoakClient.sleep(500);
        }
        say("DLQ: its consumer stopped; " + inFlight(sqs, dlq) + " message(s) in flight before reading");
        List<String> bodies = new ArrayList<>();
        int empty = 0;
        while (empty < 2) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(dlq).maxNumberOfMessages(10)
                    .visibilityTimeout(600).waitTimeSeconds(1)).messages();
            empty = batch.isEmpty() ? empty + 1 : 0;
            batch.forEach(m -> bodies.add(m.body()));
        }
        return new SoakVerdict.DeadLetters(bodies, Math.max(0, inFlight(sqs, dlq) - bodies.size()));
    }

    private static int inFlight(SqsClient sqs, String queueUrl) {
        return Integer.parseInt(dlqAttribute(sqs, queueUrl,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    private static String dlqAttribute(SqsClient sqs, String queueUrl, QueueAttributeName name) {
        return sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(name)).attributes().get(name);
    }

    /** Whether the stack runs a dead-letter handler: it says so on the console when it starts one. */
    private String deadLetterHandler() {
        if (deadLetterRunning) {
            return "dead-letter handler: running in the stack";
        }
        boolean built = new ComponentPackages(TestPaths.repo()).functionZip("dead-letter").isPresent();
        return "dead-letter handler: NOT running in the stack (" + (built ? "functions/dead-letter is built but "
                + "the stack does not start it" : "functions/dead-letter is not built") + "): dead-lettered jobs "
                + "without a result are not repaired; they show as stuck and as DLQ entries without a failed result";
    }

    private void report(SoakSettings settings, SoakVerdict verdict, LocalStack stack,
                        Map<String, FaultProxy> proxies) {
        StringBuilder text = new StringBuilder(String.format("%nCHAOS SOAK RESULT: %s%n  %s%n", settings.describe(),
                deadLetterHandler()));
        text.append("  connections through the fault proxies: ").append(new TreeMap<>(proxies).entrySet()
                .stream().map(e -> e.getKey() + "=" + e.getValue().connections()).toList()).append('\n');
        stack.workerSupervisors().forEach((tier, supervisor) -> text.append("  ").append(tier.wireName())
                .append(" worker restarts: ").append(supervisor.restarts()).append('\n'));
        text.append("  columns: cncl = cancelled before start (marker cancelled, no result); dblinf = jobs with more "
                + "than one successful model generation; unfin = no result while messages were still in flight at "
                + "the settle limit; stat = status API disagreeing with storage; cb = jobs with a result but no "
                + "callback whose signature verifies and whose body reports that result; calls> = jobs with more "
                + "model calls than the retry bound; dlq! = DLQ entries with a requestId but no failed result; "
                + "poison = unattributable poison messages found in the DLQ / sent; 4xx = submissions refused (not "
                + "tracked). Every column but ok, failed, cncl, dblinf, p50, p99, jobs/s and 4xx fails the soak "
                + "when not 0 (poison: when found < sent)\n");
        text.append(verdict.table());
        List<String> findings = verdict.findings();
        findings.stream().limit(40).forEach(f -> text.append("  ").append(f).append('\n'));
        if (findings.size() > 40) {
            text.append("  ... and ").append(findings.size() - 40).append(" more findings\n");
        }
        out.println(text);
    }

    private void say(String line) {
        out.println("[soak] " + line);
    }

    /** Only the launcher's own lines (restarts, warnings) and the soak's; component output would drown them. */
    private Console quietConsole() {
        return new Console(new PrintStream(System.out, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                if (line.startsWith("[dead-letter")) {
                    deadLetterRunning = true;
                }
                if (line.startsWith("[local-stack]")) {
                    super.println(line);
                }
            }
        });
    }
}
