package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.ObjectCreatedListener;
import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.apigateway.HttpApiRoute;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The jobs the stack saw lately, newest first and at most {@link #CAPACITY}: from the API's answers (the request
 * and the tier it was routed to) and from the S3 event stream the launcher already delivers (marker, result, audio
 * and notification writes). Both feeds only note what happened, in constant time, on the writer's thread; a job's
 * marker or result is read from S3 when a page asks for it and S3 reported a write since the last read, so an open
 * page costs about one read per job (its result) and none while nothing moves.
 */
public final class RecentJobs implements ObjectCreatedListener, HttpApiFacade.Observer {
    static final int CAPACITY = 200;

    private final String bucket;
    private final Function<String, Optional<byte[]>> objects;
    private final Clock clock;
    private final Map<String, JobEntry> jobs = new LinkedHashMap<>();
    /**
     * The stored id of each job the API answered, by the id its client chose (pages and links use the client's id;
     * on the rare clash of two callers' ids the latest answer wins, which only a local console can live with).
     */
    private final Map<String, String> storedIds = new HashMap<>();
    /** Per tier, the jobs the API queued that no worker started yet, oldest first (not bounded by CAPACITY). */
    private final Map<String, Map<String, Instant>> queued = new HashMap<>();
    private final ReentrantLock reading = new ReentrantLock();
    private final OwnerIds ownerIds;

    /**
     * {@code objects} reads a key of {@code bucket} (empty when absent); {@code ownerIds}: how the router derives a
     * caller's owner id.
     */
    public RecentJobs(String bucket, Function<String, Optional<byte[]>> objects, Clock clock, OwnerIds ownerIds) {
        this.bucket = bucket;
        this.objects = objects;
        this.clock = clock;
        this.ownerIds = ownerIds;
    }

    @Override
    public void answered(HttpApiRoute.Match route, byte[] requestBody, int status, byte[] responseBody) {
        answered(route, CallerIdentity.ANONYMOUS, requestBody, status, responseBody);
    }

    @Override
    public void answered(HttpApiRoute.Match route, CallerIdentity identity, byte[] requestBody, int status,
                         byte[] responseBody) {
        Owner caller = identity == null ? null : ownerIds.of(identity);
        String key = route.route().routeKey();
        boolean submission = "POST /v1/jobs".equals(key) || "POST /infer".equals(key);
        if (!submission || status < 200 || status >= 300) {
            return;
        }
        JsonNode answer = JobJson.read(new String(responseBody, StandardCharsets.UTF_8),
                JsonNode.class);
        String requestId = answer.path("requestId").asText("");
        if (!RequestIds.isValid(requestId)) {
            return;
        }
        String clientId = RequestIds.normalize(requestId);
        String stored = caller == null ? clientId : JobKey.submitted(caller, clientId).storedId();
        synchronized (this) {
            JobEntry entry = entry(stored);
            entry.clientRequestId = clientId;
            entry.owner = caller;
            storedIds.put(clientId, stored);
            entry.request = requestBody;
            entry.answeredTier = answer.path("tier").asText(null);
            // the worker may have written its running marker before this answer was even sent
            if (entry.answeredTier != null && entry.markerWrites < 2 && !entry.resultWritten) {
                queued.computeIfAbsent(entry.answeredTier, t -> new LinkedHashMap<>())
                        .putIfAbsent(stored, entry.firstSeenAt);
            }
        }
    }

    @Override
    public void objectCreated(String bucketName, String key, long size, String eTag) {
        if (!bucket.equals(bucketName)) {
            return;
        }
        JobKeys.of(key).ifPresent(this::written);
    }

    private synchronized void written(JobKeys object) {
        JobEntry entry = entry(object.requestId());
        switch (object.kind()) {
            case MARKER -> entry.markerWrites++;
            case RESULT -> entry.resultWritten = true;
            case AUDIO -> entry.audio = true;
            case NOTIFICATION -> entry.notifications.add(object.step());
        }
        // the second marker write is running (or cancelled): the job left its queue
        if (entry.answeredTier != null && (entry.markerWrites >= 2 || entry.resultWritten)) {
            Map<String, Instant> waiting = queued.get(entry.answeredTier);
            if (waiting != null) {
                waiting.remove(entry.requestId);
            }
        }
    }

    /**
     * Per tier, since when the oldest job the API queued has been waiting for a worker (SQS answers no message
     * ages; CloudWatch's ApproximateAgeOfOldestMessage is not here). Jobs sent straight to a queue are not counted.
     */
    public synchronized Map<String, Instant> oldestQueued() {
        Map<String, Instant> oldest = new TreeMap<>();
        queued.forEach((tier, waiting) -> waiting.values().stream().findFirst().ifPresent(t -> oldest.put(tier, t)));
        return oldest;
    }

    /** The entry of {@code requestId}, made the newest when new; the oldest goes past {@link #CAPACITY}. */
    private JobEntry entry(String requestId) {
        JobEntry entry = jobs.get(requestId);
        if (entry == null) {
            entry = new JobEntry(requestId, clock.instant());
            jobs.put(requestId, entry);
            if (jobs.size() > CAPACITY) {
                Iterator<JobEntry> oldest = jobs.values().iterator();
                JobEntry evicted = oldest.next();
                oldest.remove();
                if (evicted.clientRequestId != null) {
                    storedIds.remove(evicted.clientRequestId, evicted.requestId);
                }
            }
        }
        return entry;
    }

    /** The newest {@code limit} jobs, newest first, each read again from S3 if it changed. */
    public List<JobRow> newest(int limit) {
        List<JobEntry> entries;
        synchronized (this) {
            entries = new ArrayList<>(jobs.values());
        }
        Collections.reverse(entries);
        List<JobEntry> page = entries.subList(0, Math.min(limit, entries.size()));
        page.forEach(this::refresh);
        synchronized (this) {
            return page.stream().map(JobRow::of).toList();
        }
    }

    /**
     * The newest {@code limit} jobs of {@code owner}, newest first: those it submitted through the API, and those
     * whose marker or result names it.
     */
    public List<JobRow> newest(int limit, Owner owner) {
        List<JobEntry> entries;
        synchronized (this) {
            entries = new ArrayList<>(jobs.values());
        }
        Collections.reverse(entries);
        List<JobRow> rows = new ArrayList<>();
        for (JobEntry entry : entries) {
            if (rows.size() == limit) {
                break;
            }
            refresh(entry);
            synchronized (this) {
                if (owner.value().equals(entry.ownerValue())) {
                    rows.add(JobRow.of(entry));
                }
            }
        }
        return rows;
    }

    /**
     * The stored id of the job {@code owner} names {@code requestId}: its own client id, namespaced as the router
     * does, or the stored id of a listed job of its own. Another caller's job is never named this way.
     */
    public synchronized String storedIdOf(String requestId, Owner owner) {
        JobEntry listed = jobs.get(requestId);
        if (listed != null && owner.value().equals(listed.ownerValue())) {
            return requestId;
        }
        return JobKey.submitted(owner, requestId).storedId();
    }

    /** One job, when the console saw it. */
    public Optional<JobRow> find(String requestId) {
        JobEntry entry;
        synchronized (this) {
            entry = jobs.get(storedId(requestId));
        }
        if (entry == null) {
            return Optional.empty();
        }
        refresh(entry);
        synchronized (this) {
            return Optional.of(JobRow.of(entry));
        }
    }

    /** The request body the API accepted for {@code requestId}, when the console saw it. */
    public synchronized Optional<byte[]> request(String requestId) {
        return Optional.ofNullable(jobs.get(storedId(requestId))).map(e -> e.request);
    }

    /** The notification steps recorded for {@code requestId} (published, callback, undeliverable). */
    public synchronized List<String> notifications(String requestId) {
        return Optional.ofNullable(jobs.get(storedId(requestId))).map(e -> List.copyOf(e.notifications))
                .orElse(List.of());
    }

    /** The id the job a page names {@code requestId} (its client's id, or a stored one) is stored under. */
    public synchronized String storedId(String requestId) {
        return storedIds.getOrDefault(requestId, requestId);
    }

    /**
     * Reads what S3 reported newer (one reader at a time: nothing read twice). A finished job costs one read, its
     * result, which also says when it was submitted and started; the marker is read only while no result exists.
     */
    private void refresh(JobEntry entry) {
        synchronized (this) {
            if (!entry.stale()) {
                return;
            }
        }
        reading.lock();
        try {
            int markerWrites;
            boolean finished;
            synchronized (this) {
                markerWrites = entry.markerWrites;
                finished = entry.resultWritten;
            }
            if (finished) {
                Optional<JobResult> result = read(JobLayout.resultKey(entry.requestId), JobResult.class);
                synchronized (this) {
                    result.ifPresent(r -> entry.result = r);
                    entry.markerWritesRead = markerWrites;
                }
            } else if (markerWrites > entry.markerWritesRead) {
                Optional<JobState> marker = read(JobLayout.markerKey(entry.requestId), JobState.class);
                synchronized (this) {
                    marker.ifPresent(m -> entry.marker = m);
                    // a marker taken back (a failed send) reads as absent: not read again until written again
                    entry.markerWritesRead = markerWrites;
                }
            }
        } finally {
            reading.unlock();
        }
    }

    private <T> Optional<T> read(String key, Class<T> type) {
        return objects.apply(key).flatMap(bytes -> {
            try {
                return Optional.of(JobJson.read(new String(bytes, StandardCharsets.UTF_8), type));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        });
    }
}
