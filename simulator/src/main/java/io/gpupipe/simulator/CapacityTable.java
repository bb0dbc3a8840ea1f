package io.gpupipe.simulator;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Scale on paper: what each AWS resource sees per accepted job, times a rate of accepted jobs, against its limit.
 * The per-job calls are counted on the code's paths for a text job without callback or cache, polled once:
 * <ul>
 *   <li>router, {@code POST /v1/jobs} (JobSubmitter): the caller's slot create-only PUT {@code quotas/} (JobQuota, the
 *   first slot tried free), marker create-only PUT {@code jobs/}, SendMessage to the tier queue;</li>
 *   <li>router, {@code GET /v1/jobs/{id}}: marker GET {@code jobs/}, result GET {@code results/};</li>
 *   <li>worker (JobProcessor): marker GET and conditional PUT (RUNNING) {@code jobs/}, result HEAD and create-only PUT
 *   {@code results/}; ReceiveMessage and DeleteMessageBatch of 10 (0.3 calls per job measured,
 *   docs/benchmarks.md);</li>
 *   <li>result notifier (ResultNotifier): result GET {@code results/}, delivery record GET and PUT
 *   {@code notifications/}, SNS Publish, the release: marker GET {@code jobs/} and the slot's conditional DELETE
 *   {@code quotas/} (JobSlotReleases), usage record create-only PUT {@code usage/}.</li>
 * </ul>
 * Function durations are the sum of their calls at a region's latencies (S3 GET 20 ms, PUT 30 ms, SQS and SNS 10 and
 * 20 ms) plus 5 ms of their own: concurrency is rate × duration (Little's law).
 */
final class CapacityTable {
    static final List<Integer> RATES = List.of(100, 1_000, 10_000);
    static final double S3_GET = 0.020;
    static final double S3_PUT = 0.030;
    static final double SQS_CALL = 0.010;
    static final double SNS_CALL = 0.020;
    static final double OWN = 0.005;
    static final double ROUTER_POST_SECONDS = S3_PUT + S3_PUT + SQS_CALL + OWN;
    static final double ROUTER_GET_SECONDS = S3_GET + S3_GET + OWN;
    static final double NOTIFIER_SECONDS = S3_GET + S3_GET + SNS_CALL + S3_PUT + S3_GET + S3_PUT + S3_PUT + OWN;

    /** Whose limit it is: a setting of this deployment, an AWS service quota, or this design's own ceiling. */
    enum Kind {
        SETTING, QUOTA, DESIGN;

        String label() {
            return switch (this) {
                case SETTING -> "template setting";
                case QUOTA -> "AWS quota";
                case DESIGN -> "design";
            };
        }
    }

    /** One resource: what it sees per accepted job, its limit in the same unit, and what raises the limit. */
    record Resource(Kind kind, String name, String unit, double perJob, double limit, String source,
                    String raisedBy) {
        double at(int jobsPerSecond) {
            return perJob * jobsPerSecond;
        }

        /** The rate of accepted jobs at which this resource reaches its limit. */
        double reachedAt() {
            return limit / perJob;
        }
    }

    static List<Resource> resources() {
        return List.of(
                new Resource(Kind.SETTING, "API route POST /v1/jobs (stage throttle)", "req/s", 1, 50,
                        "ApiRateLimit default 50, burst ApiBurstLimit 100",
                        "SAM parameters ApiRateLimit / ApiBurstLimit, up to the account's throttle"),
                new Resource(Kind.QUOTA, "API Gateway, account and Region (POST + one GET)", "req/s", 2, 10_000,
                        "API Gateway quotas: 10,000 RPS, burst 5,000", "Service Quotas increase (L-8A5B8E43)"),
                new Resource(Kind.SETTING, "Result notifier concurrency", "concurrent", NOTIFIER_SECONDS, 10,
                        "ReservedConcurrentExecutions 10",
                        "the notifier's reserved concurrency in sam-template.yaml"),
                new Resource(Kind.QUOTA, "Lambda concurrency, account (router + notifier)", "concurrent",
                        ROUTER_POST_SECONDS + ROUTER_GET_SECONDS + NOTIFIER_SECONDS, 1_000,
                        "Lambda quotas: 1,000 concurrent executions per Region", "Service Quotas increase"),
                new Resource(Kind.DESIGN, "One caller's slots quotas/{owner}/jobs/slots/ (claim, free)", "req/s", 2,
                        3_500, "all of a caller's slots under one prefix: S3's 3,500 PUT/DELETE per second per "
                                + "partitioned prefix", "S3 partitions a busy prefix by itself (503 SlowDown "
                                + "meanwhile); slot keys spread over more prefixes per caller"),
                new Resource(Kind.QUOTA, "S3 jobs/ PUT (marker, RUNNING)", "PUT/s", 2, 3_500,
                        "S3: 3,500 PUT per second per partitioned prefix", "S3 partitions a busy prefix by itself "
                                + "(503 SlowDown meanwhile); keys are random ids after jobs/"),
                new Resource(Kind.QUOTA, "S3 jobs/ GET (worker, poll, release)", "GET/s", 3, 5_500,
                        "S3: 5,500 GET/HEAD per second per partitioned prefix", "as above"),
                new Resource(Kind.QUOTA, "S3 results/ GET + HEAD (worker, notifier, poll)", "GET/s", 3, 5_500,
                        "S3: 5,500 GET/HEAD per second per partitioned prefix", "as above"),
                new Resource(Kind.QUOTA, "S3 results/ PUT", "PUT/s", 1, 3_500, "S3: 3,500 PUT per second per prefix",
                        "as above"),
                new Resource(Kind.QUOTA, "S3 quotas/ PUT + DELETE (slot claimed, freed)", "req/s", 2, 3_500,
                        "S3: 3,500 PUT/DELETE per second per prefix", "as above (keys spread by owner hash)"),
                new Resource(Kind.QUOTA, "S3 notifications/ PUT", "PUT/s", 1, 3_500,
                        "S3: 3,500 PUT per second per prefix",
                        "as above"),
                new Resource(Kind.QUOTA, "S3 usage/ PUT", "PUT/s", 1, 3_500, "S3: 3,500 PUT per second per prefix",
                        "as above"),
                new Resource(Kind.QUOTA, "SQS tier queue (send, receive, delete)", "calls/s", 1.3,
                        Double.POSITIVE_INFINITY,
                        "SQS standard: nearly unlimited calls per second per action", "nothing needed"));
    }

    /** The resource of {@code kind} reached at the lowest job rate. */
    static Resource firstLimit(Kind kind) {
        return resources().stream().filter(r -> r.kind() == kind).min(Comparator.comparingDouble(Resource::reachedAt))
                .orElseThrow();
    }

    static String markdown() {
        StringBuilder out = new StringBuilder("| resource | per job | 100 jobs/s | 1,000 jobs/s | 10,000 jobs/s "
                + "| limit | reached at | raised by |\n|---|---|---|---|---|---|---|---|\n");
        for (Resource r : resources()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s (%s: %s) | %s | %s |%n", r.name(),
                    number(r.perJob()), mark(r, 100), mark(r, 1_000), mark(r, 10_000),
                    Double.isInfinite(r.limit()) ? "none" : number(r.limit()) + " " + r.unit(), r.kind().label(),
                    r.source(),
                    Double.isInfinite(r.reachedAt()) ? "never" : number(r.reachedAt()) + " jobs/s", r.raisedBy()));
        }
        out.append('\n');
        for (Kind kind : Kind.values()) {
            Resource first = firstLimit(kind);
            out.append(String.format(Locale.ROOT, "First %s hit: %s at %s jobs/s; raised by %s.%n", kind.label(),
                    first.name(), number(first.reachedAt()), first.raisedBy()));
        }
        return out.toString();
    }

    /** The value at a rate, in bold when it is over the limit. */
    private static String mark(Resource r, int rate) {
        String value = number(r.at(rate));
        return r.at(rate) > r.limit() ? "**" + value + "**" : value;
    }

    private static String number(double value) {
        if (Math.abs(value - Math.rint(value)) < 1e-9) {
            return String.format(Locale.ROOT, "%,d", Math.round(value));
        }
        if (value < 1) {
            return String.format(Locale.ROOT, "%.3f", value);
        }
        return value < 100 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%,.0f", value);
    }
}
