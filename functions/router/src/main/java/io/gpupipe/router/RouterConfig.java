package io.gpupipe.router;

import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.owner.IamCallerScope;
import io.gpupipe.model.owner.OwnerIdKeys;
import io.gpupipe.router.aws.ClientSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The router's configuration (env vars follow Quarkus mapping, e.g. {@code GPUPIPE_ROUTER_QUEUE_URLS_SMALL}). */
@ConfigMapping(prefix = "gpupipe.router")
public interface RouterConfig {
    /**
     * URL of each tier's SQS queue, by tier name ({@code GPUPIPE_ROUTER_QUEUE_URLS_<TIER>}); every tier of the
     * catalogue needs one (checked at start-up).
     */
    Map<String, String> queueUrls();

    /**
     * The model version each tier's workers claim ({@code GPUPIPE_ROUTER_MODEL_VERSIONS_<TIER>}; SAM's
     * {@code <Tier>ModelVersion}, from the same pinned commit the CDK worker gets): result cache look-ups of the
     * tier's jobs are keyed by it. A tier without one (or with a blank one) is never answered from the cache.
     */
    Map<String, String> modelVersions();

    /** The results bucket holding {@code jobs/} markers and {@code results/}. */
    String bucket();

    /**
     * Base of the {@code statusUrl} returned on submission (e.g. {@code https://api.example.com}). When absent, it is
     * derived from the request's {@code X-Forwarded-Proto} and {@code Host} headers.
     */
    Optional<URI> publicBaseUrl();

    /** Largest accepted request body; larger ones get 413. 512 KiB admits a 100,000-char prompt of 3-byte chars. */
    @WithDefault("524288")
    int maxBodyBytes();

    /** Lifetime of the presigned result/audio URLs returned by the status endpoint. */
    @WithDefault("15m")
    Duration presignTtl();

    /**
     * MaximumMessageSize of the tier queues (body plus attributes); a job whose message would be larger travels as a
     * claim check. SQS's default, which the templates' queues keep, is 262,144 bytes.
     */
    @WithDefault("262144")
    int maxMessageBytes();

    /** CloudWatch namespace of the router's EMF metrics; SAM's MetricNamespace via {@code GPUPIPE_METRIC_NAMESPACE}. */
    @WithDefault(MetricNamespace.CONFIG_DEFAULT)
    String metricNamespace();

    Routing routing();

    Fault fault();

    /**
     * Who the callers are ({@code GPUPIPE_ROUTER_AUTH}; SAM sets it from its {@code Auth} parameter): {@code iam}
     * and {@code jwt} require API Gateway's authorizer of that kind in every request (one without is answered 401),
     * {@code none} (local development without an authorizer) takes one when the request carries it and is the one
     * anonymous caller otherwise. The default requires IAM, as the template's default does.
     */
    @WithDefault("iam")
    AuthMode auth();

    /**
     * Which IAM principal is one caller ({@link IamCallerScope#ENV_VAR}; SAM's {@code IamCallerScope}): {@code role}
     * (every session of an assumed role is one caller) or {@code session} (each session its own), docs/security.md.
     */
    @WithDefault("role")
    IamCallerScope iamCallerScope();

    /**
     * Whether callers' unkeyed owner ids (plain SHA-256, from before owner ids were keyed with the deployment key) are
     * still honoured for what they submitted under them ({@link OwnerIdKeys#ACCEPT_UNKEYED_ENV}; SAM's
     * {@code AcceptUnkeyedOwnerIds}): on while an upgraded deployment's older jobs and batches may still be read,
     * docs/security.md "Owner ids".
     */
    @WithDefault("false")
    boolean acceptUnkeyedOwnerIds();

    /**
     * The JWT claim naming a caller's tenant ({@code GPUPIPE_ROUTER_JWT_TENANT_CLAIM}; SAM's {@code JwtTenantClaim}):
     * when set, every caller whose token carries the same value of it at one issuer is one owner and sees the others'
     * jobs; a token without it is its subject's own. Unset, every subject is its own owner.
     */
    Optional<String> jwtTenantClaim();

    /** Per-caller limits on unfinished work (docs/security.md). */
    Quota quota();

    interface Quota {
        /** Most jobs a caller may have submitted over the API and not yet finished (cancelled counts as finished). */
        @WithDefault("10000")
        int maxUnfinishedJobs();

        /** Most batches a caller may have created and not yet finished; a batch's lines count only against it. */
        @WithDefault("100")
        int maxUnfinishedBatches();

        /**
         * Most lines of unfinished batches a caller may have (SAM's {@code MaxUnfinishedBatchLinesPerCaller}, as the
         * batch function's {@code max-unfinished-lines}): at it, a new batch is refused; a batch that would take the
         * caller over it fails at validation ({@code line_limit_exceeded}).
         */
        @WithDefault(BatchLinesQuota.DEFAULT_MAX_LINES)
        int maxUnfinishedBatchLines();

        /**
         * The longest anything stays unfinished: SQS's 14-day retention, plus a day. A job's slot or a batch's ledger
         * entry older than this is freed, however it ended (a release that never came).
         */
        @WithDefault("15d")
        Duration entryLifetime();

        /**
         * Jobs: how many of a refused caller's slots one router instance re-checks (a result? a cancel?) per minute, in
         * turn, so every slot is re-checked within ceil(limit / recheck) minutes of refusals. Batches: how many of a
         * full ledger's oldest entries are re-checked before answering 429.
         */
        @WithDefault("8")
        int recheck();

        /**
         * How long one admission may keep losing the free slots it saw to concurrent ones (jobs), or one ledger update
         * meeting concurrent writers (batches), before the router answers 503.
         */
        @WithDefault("5s")
        Duration contention();

        /** The {@code Retry-After} of a 429. */
        @WithDefault("30s")
        Duration retryAfter();
    }

    /** The per-caller request rate each router instance enforces (docs/security.md, "Request rate"). */
    Rate rate();

    interface Rate {
        /**
         * Requests per second one caller may send to one router instance, steadily; faster ones are answered 429
         * {@code rate_limited} before anything is read or written.
         */
        @WithDefault("25")
        double requestsPerSecond();

        /** Requests one caller may send at once above the steady rate (its token bucket's size). */
        @WithDefault("50")
        int burst();
    }

    /** Callers' usage ({@code GET /v1/usage}) and the optional monthly token budget (docs/api.md, "Usage"). */
    Usage usage();

    interface Usage {
        /**
         * Prompt and completion tokens each caller may use per calendar month (UTC), counted from finished jobs
         * ({@code GPUPIPE_ROUTER_USAGE_MONTHLY_TOKEN_BUDGET}; SAM's {@code MonthlyTokenBudget}); unset or 0: no budget.
         * Over it, submissions answer 429 {@code budget_exceeded}.
         */
        Optional<Long> monthlyTokenBudget();

        /** How long a router instance reuses a caller's count of the month's tokens before reading it again. */
        @WithDefault("60s")
        Duration budgetRefresh();
    }

    /** Which authorizer's identity the router takes (configured in lower case). */
    enum AuthMode {
        NONE,
        IAM,
        JWT,
        /** Either authorizer's, one required: the local stack's HTTP API, which checks SigV4 and bearer tokens. */
        ANY
    }

    /**
     * The batch queue ({@code GPUPIPE_ROUTER_BATCH_QUEUE_URL}), where {@code POST /v1/batches} hands a batch to the
     * batch function; unset, the batch endpoints answer 503.
     */
    Optional<String> batchQueueUrl();

    /** Lifetime of the presigned PUT {@code POST /v1/batches/uploads} answers (an input file of up to 200 MB). */
    @WithDefault("1h")
    Duration uploadTtl();

    /** Upload URLs ({@code POST /v1/batches/uploads}) one caller may get per UTC hour; the next answers 429. */
    @WithDefault("100")
    int uploadsPerHour();

    /** FAULT-INJECTION HOOKS for the chaos soak; all off by default and in every deployment template. */
    interface Fault {
        /**
         * Probability (0..1) that an invocation dies after writing a marker and before the SQS send
         * ({@code GPUPIPE_ROUTER_FAULT_DIE_AFTER_MARKER_RATIO}).
         */
        @WithDefault("0")
        double dieAfterMarkerRatio();
    }

    Classifier classifier();

    /** Seed 001's routing thresholds. */
    interface Routing {
        @WithDefault("2000")
        int largePromptChars();

        @WithDefault("1024")
        int largeMaxTokens();

        @WithDefault("500")
        int ambiguousPromptChars();
    }

    /** Who decides the ambiguous zone of the routing table. */
    interface Classifier {
        @WithDefault("heuristic")
        ClassifierType type();

        Bedrock bedrock();
    }

    /** The Bedrock Converse classifier (used only with {@code type=bedrock}). */
    /** The wake of an idle tier (docs/cold-start.md): off unless {@code function} is set. */
    Wake wake();

    interface Wake extends ClientSettings {
        /**
         * Name or ARN of the scaling-metric function the router invokes asynchronously on the first job of an idle
         * tier ({@code GPUPIPE_ROUTER_WAKE_FUNCTION}; SAM sets it); unset, tiers wake at the next scheduled run.
         */
        Optional<String> function();

        /**
         * How long after this environment's last send to a tier it assumes the tier awake (no tier scales to zero
         * sooner: the to-zero alarm's idle minutes, CDK idleToZeroMinutes, default 5).
         */
        @WithDefault("5m")
        Duration awakeAfterSend();

        /** Whole-call limit of the Invoke (answered 202 at once when accepted). */
        @WithDefault("2s")
        Duration timeout();

        /** Endpoint override (the local stack's Lambda stand-in). */
        Optional<URI> endpointOverride();

        /** Region of the Lambda client; the SDK's default region chain (AWS_REGION) when absent. */
        Optional<String> region();
    }

    interface Bedrock extends ClientSettings {
        @WithDefault("amazon.nova-micro-v1:0")
        String modelId();

        /** Whole-call timeout; on expiry the job goes small. */
        @WithDefault("1s")
        Duration timeout();

        /** Endpoint override (VPC endpoint, or a local stand-in in tests). */
        Optional<URI> endpointOverride();

        /** Region of the Bedrock client; the SDK's default region chain (AWS_REGION) when absent. */
        Optional<String> region();
    }

    /** Classifier implementations (configured in lower case: {@code heuristic}, {@code bedrock}). */
    enum ClassifierType {
        HEURISTIC,
        BEDROCK
    }
}
