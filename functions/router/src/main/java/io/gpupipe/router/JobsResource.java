package io.gpupipe.router;

import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.internal.RequestGate;
import io.gpupipe.router.internal.StatusUrls;
import io.gpupipe.router.internal.SubmissionBudget;
import io.gpupipe.router.internal.SubmitTracing;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;

/**
 * The HTTP API (served through API Gateway HTTP API v2 events): submit, seed-compatible submit, status, cancel; each
 * for the caller API Gateway's authorizer names ({@link Callers}).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {
    private final JobService service;
    private final RequestGate gate;
    private final StatusUrls statusUrls;
    private final SubmitTracing tracing;
    private final CurrentCaller caller;
    private final SubmissionBudget budget;

    JobsResource(JobService service, RequestGate gate, StatusUrls statusUrls, SubmitTracing tracing,
                 CurrentCaller caller, SubmissionBudget budget) {
        this.budget = budget;
        this.service = service;
        this.gate = gate;
        this.statusUrls = statusUrls;
        this.tracing = tracing;
        this.caller = caller;
    }

    @POST
    @Path("v1/jobs")
    @Consumes(MediaType.WILDCARD)
    public Response submit(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                           @HeaderParam(HttpHeaders.HOST) String host, @HeaderParam("X-Forwarded-Proto") String proto,
                           @HeaderParam(TraceContext.TRACEPARENT) String traceparent) {
        return submit(body, contentType, urls(host, proto), false, traceparent);
    }

    /** Seed 001's endpoint: same behaviour as {@code POST /v1/jobs}, answer {@code {requestId, tier}}. */
    @POST
    @Path("infer")
    @Consumes(MediaType.WILDCARD)
    public Response infer(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
                          @HeaderParam(TraceContext.TRACEPARENT) String traceparent) {
        return submit(body, contentType, id -> null, true, traceparent);
    }

    @GET
    @Path("v1/jobs/{id}")
    public Response status(@PathParam("id") String id, @HeaderParam(HttpHeaders.HOST) String host,
                           @HeaderParam("X-Forwarded-Proto") String proto) {
        return ApiResponses.status(service.status(id, caller.owners()), urls(host, proto));
    }

    @DELETE
    @Path("v1/jobs/{id}")
    public Response cancel(@PathParam("id") String id, @HeaderParam(HttpHeaders.HOST) String host,
                           @HeaderParam("X-Forwarded-Proto") String proto) {
        return ApiResponses.cancelled(service.cancel(id, caller.owners()), urls(host, proto));
    }

    private Response submit(byte[] body, String contentType, Function<String, String> urls, boolean seedShape,
                            String traceparent) {
        Owner owner = caller.owner();
        int length = body == null ? 0 : body.length;
        Optional<RequestGate.Refusal> refusal = gate.check(contentType, length);
        if (refusal.isPresent()) {
            return ApiResponses.error(refusal.get().status(), refusal.get().error());
        }
        Optional<SubmissionBudget.Exceeded> overBudget = budget.check(owner);
        if (overBudget.isPresent()) {
            return ApiResponses.budgetExceeded(overBudget.get());
        }
        String json = length == 0 ? "" : new String(body, StandardCharsets.UTF_8);
        SubmitTracing.SubmitSpan span = tracing.start(traceparent);
        try {
            SubmitOutcome outcome = span.describe(service.submit(json, caller.owners()));
            ResultLinks links = outcome instanceof SubmitOutcome.Cached cached ? service.links(owner, cached.view())
                    : ResultLinks.NONE;
            return ApiResponses.submitted(outcome, urls, seedShape, links);
        } catch (RuntimeException e) {
            span.failed(e);
            throw e;
        } finally {
            span.end(); // after the catch: a failure is recorded while the span is still open
        }
    }

    private Function<String, String> urls(String host, String proto) {
        return id -> statusUrls.of(id, host, proto);
    }
}
