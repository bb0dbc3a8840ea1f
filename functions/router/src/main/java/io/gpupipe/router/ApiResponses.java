package io.gpupipe.router;

import io.gpupipe.jobs.CancelOutcome;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.internal.SubmissionBudget;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** Maps the service's outcomes to HTTP answers; every body is written with the shared {@link JobJson} mapper. */
final class ApiResponses {
    static final String RETRY_AFTER_SECONDS = "1";
    static final String RETRY_AFTER = "Retry-After";
    private static final int ACCEPTED = 202;
    private static final int UNAUTHORIZED = 401;
    private static final int TOO_MANY_REQUESTS = 429;

    private ApiResponses() {
    }

    /**
     * {@code seedShape}: answer seed 001's {@code {requestId, tier}} instead of the v1 body; {@code links}: the
     * presigned links of a result answered at once (a cache hit), else none.
     */
    static Response submitted(SubmitOutcome outcome, Function<String, String> statusUrl, boolean seedShape,
                              ResultLinks links) {
        if (outcome instanceof SubmitOutcome.Accepted a) {
            String id = a.job().visibleRequestId();
            Object body = seedShape ? new InferResponse(id, a.decision().tier())
                    : new SubmitResponse(id, a.decision().tier(), JobStatus.QUEUED, statusUrl.apply(id));
            return json(ACCEPTED, body);
        }
        if (outcome instanceof SubmitOutcome.Duplicate d) {
            String id = d.view().requestId();
            Object body = seedShape ? new InferResponse(id, d.view().tier())
                    : JobStatusResponse.of(d.view(), ResultLinks.NONE, statusUrl.apply(id));
            return json(200, body);
        }
        if (outcome instanceof SubmitOutcome.Cached c) {
            String id = c.view().requestId();
            Object body = seedShape ? new InferResponse(id, c.view().tier())
                    : JobStatusResponse.of(c.view(), links, statusUrl.apply(id));
            return json(200, body);
        }
        if (outcome instanceof SubmitOutcome.Rejected r) {
            return json(400, new ErrorResponse(r.errors(), r.requestId().orElse(null), null));
        }
        if (outcome instanceof SubmitOutcome.QuotaExceeded q) {
            return quotaExceeded(QuotaKind.JOBS, q.limit(), q.retryAfter(), q.requestId());
        }
        SubmitOutcome.Unavailable u = (SubmitOutcome.Unavailable) outcome;
        return unavailable(u.message(), u.requestId());
    }

    static Response status(StatusOutcome outcome, Function<String, String> statusUrl) {
        if (outcome instanceof StatusOutcome.Found f) {
            return json(200, JobStatusResponse.of(f.view(), f.links(), statusUrl.apply(f.view().requestId())));
        }
        if (outcome instanceof StatusOutcome.NotFound n) {
            return notFound(n.requestId());
        }
        return invalidId(((StatusOutcome.InvalidId) outcome).raw());
    }

    static Response cancelled(CancelOutcome outcome, Function<String, String> statusUrl) {
        if (outcome instanceof CancelOutcome.Cancelled c) {
            return json(ACCEPTED, JobStatusResponse.of(c.view(), ResultLinks.NONE,
                    statusUrl.apply(c.view().requestId())));
        }
        if (outcome instanceof CancelOutcome.AlreadyCancelled c) {
            return json(200, JobStatusResponse.of(c.view(), ResultLinks.NONE,
                    statusUrl.apply(c.view().requestId())));
        }
        if (outcome instanceof CancelOutcome.NotCancellable c) {
            return json(409, new ErrorResponse(List.of(new FieldError("status", ApiErrorCodes.NOT_CANCELLABLE,
                    "job " + c.view().requestId() + " is " + c.view().status().wireName()
                            + " and can no longer be cancelled")), c.view().requestId(), null));
        }
        if (outcome instanceof CancelOutcome.PartOfBatch p) {
            return json(409, new ErrorResponse(List.of(new FieldError("requestId", ApiErrorCodes.PART_OF_BATCH,
                    "job " + p.view().requestId() + " is a line of batch " + p.batchId() + "; cancel the batch: "
                            + "DELETE /v1/batches/" + p.batchId())), p.view().requestId(), null));
        }
        if (outcome instanceof CancelOutcome.NotFound n) {
            return notFound(n.requestId());
        }
        return invalidId(((CancelOutcome.InvalidId) outcome).raw());
    }

    static Response error(int status, FieldError error) {
        return json(status, new ErrorResponse(List.of(error), null, null));
    }

    static Response unavailable(String message, String requestId) {
        return Response.status(503).type(MediaType.APPLICATION_JSON).header(RETRY_AFTER, RETRY_AFTER_SECONDS)
                .entity(JobJson.write(new ErrorResponse(List.of(new FieldError("service", ApiErrorCodes.UNAVAILABLE,
                        message)), requestId, true))).build();
    }

    /**
     * 429: the caller is at its limit of {@code kind}; the body names the limit, {@code Retry-After} when to try
     * again (RFC 9110: seconds).
     */
    static Response quotaExceeded(QuotaKind kind, int limit, Duration retryAfter, String requestId) {
        return Response.status(TOO_MANY_REQUESTS).type(MediaType.APPLICATION_JSON)
                .header(RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())))
                .entity(JobJson.write(new ErrorResponse(List.of(new FieldError("owner", ApiErrorCodes.QUOTA_EXCEEDED,
                        "limit " + limit + " " + kind.counted() + " per caller reached; retry once some have "
                                + "finished")), requestId, true))).build();
    }

    /** 429: the caller sent requests faster than {@code perSecond}; {@code Retry-After} is its next token. */
    static Response rateLimited(double perSecond, Duration retryAfter) {
        long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        return Response.status(TOO_MANY_REQUESTS).type(MediaType.APPLICATION_JSON)
                .header(RETRY_AFTER, Long.toString(seconds))
                .entity(JobJson.write(new ErrorResponse(List.of(new FieldError("owner", ApiErrorCodes.RATE_LIMITED,
                        "more than " + BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString()
                                + " requests per second from one caller; retry after " + seconds
                                + " s")), null, true))).build();
    }

    /** 429: the caller had its hourly number of upload URLs; {@code Retry-After} is the start of the next hour. */
    static Response uploadsExceeded(int perHour, Duration retryAfter) {
        return Response.status(TOO_MANY_REQUESTS).type(MediaType.APPLICATION_JSON)
                .header(RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())))
                .entity(JobJson.write(new ErrorResponse(List.of(new FieldError("owner", ApiErrorCodes.QUOTA_EXCEEDED,
                        "limit " + perHour + " upload URLs per caller per hour reached; retry in the next hour")),
                        null, true))).build();
    }

    /** 401: the deployment requires a caller identity ({@code mode}) and the request carried none. */
    static Response unauthenticated(RouterConfig.AuthMode mode) {
        return error(UNAUTHORIZED, new FieldError("Authorization", ApiErrorCodes.UNAUTHENTICATED,
                "this API requires a caller identity (" + mode.name() + " authorization); the request carried "
                        + "none that names a caller (an IAM principal, or a token's subject or tenant)"));
    }

    private static Response notFound(String id) {
        return json(404, new ErrorResponse(List.of(new FieldError("requestId", ApiErrorCodes.NOT_FOUND,
                "no job with requestId " + id)), id, null));
    }

    private static Response invalidId(String raw) {
        // the raw id is not echoed: it is untrusted text of any length
        return error(400, new FieldError("requestId", ErrorCodes.INVALID_FORMAT,
                "requestId must be a UUID version 4"));
    }

    static Response json(int status, Object body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(JobJson.write(body)).build();
    }

    /** 429: the caller has used its monthly token budget; {@code Retry-After} is the start of the next month. */
    static Response budgetExceeded(SubmissionBudget.Exceeded exceeded) {
        return Response.status(TOO_MANY_REQUESTS).type(MediaType.APPLICATION_JSON)
                .header(RETRY_AFTER, Long.toString(Math.max(1, exceeded.retryAfter().toSeconds())))
                .entity(JobJson.write(new ErrorResponse(List.of(new FieldError("owner", ApiErrorCodes.BUDGET_EXCEEDED,
                        "monthly budget of " + exceeded.budget() + " tokens reached (" + exceeded.used()
                                + " counted this month from finished jobs); it renews at " + exceeded.renewsAt())),
                        null, true))).build();
    }
}
