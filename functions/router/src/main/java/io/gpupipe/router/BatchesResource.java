package io.gpupipe.router;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.router.internal.RequestGate;
import io.gpupipe.router.internal.SubmissionBudget;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The batch API in OpenAI's format: upload an input file (a presigned PUT), create a batch naming it, read its
 * status and counts, read its output and error files as they are now, cancel it ({@code DELETE}, or OpenAI's
 * {@code POST .../cancel}), retry its failed and unstarted lines in a new batch; each for the caller API
 * Gateway's authorizer names ({@link Callers}). A body on a route that takes none is still held to the size limit.
 */
@Path("/v1/batches")
@Produces(MediaType.APPLICATION_JSON)
public class BatchesResource {
    /** JSON Lines, as OpenAI serves a batch's files. */
    static final String JSONL = "application/jsonl";
    /** How many pages a batch's output and error files have (one per chunk). */
    static final String PAGES_HEADER = "Gpupipe-Pages";
    private final BatchService service;
    private final RequestGate gate;
    private final CurrentCaller caller;
    private final BatchRetries retries;
    private final BatchFilePages pages;
    private final SubmissionBudget budget;

    BatchesResource(BatchService service, RequestGate gate, CurrentCaller caller, BatchRetries retries,
                    BatchFilePages pages, SubmissionBudget budget) {
        this.budget = budget;
        this.service = service;
        this.retries = retries;
        this.pages = pages;
        this.gate = gate;
        this.caller = caller;
    }

    @POST
    @Path("uploads")
    @Consumes(MediaType.WILDCARD)
    public Response upload(byte[] body) {
        return gate.checkSize(length(body)).map(BatchesResource::refused)
                .orElseGet(() -> uploaded(service.upload(caller.owner(), length(body) == 0 ? ""
                        : new String(body, StandardCharsets.UTF_8))));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response create(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        Owner owner = caller.owner();
        Optional<RequestGate.Refusal> refusal = gate.check(contentType, length(body));
        if (refusal.isPresent()) {
            return refused(refusal.get());
        }
        Optional<SubmissionBudget.Exceeded> overBudget = budget.check(owner);
        if (overBudget.isPresent()) {
            return ApiResponses.budgetExceeded(overBudget.get());
        }
        return answer(service.create(length(body) == 0 ? "" : new String(body, StandardCharsets.UTF_8), owner));
    }

    @GET
    @Path("{id}")
    public Response status(@PathParam("id") String id) {
        return answer(service.get(id, caller.owners()));
    }

    @DELETE
    @Path("{id}")
    public Response cancel(@PathParam("id") String id) {
        return answer(service.cancel(id, caller.owners()));
    }

    /** OpenAI's cancel ({@code POST /v1/batches/{batch_id}/cancel}), for its SDKs. */
    @POST
    @Path("{id}/cancel")
    @Consumes(MediaType.WILDCARD)
    public Response cancelOpenAi(@PathParam("id") String id, byte[] body) {
        return gate.checkSize(length(body)).map(BatchesResource::refused)
                .orElseGet(() -> answer(service.cancel(id, caller.owners())));
    }

    /** A new batch of the ended batch's failed, expired and cancelled lines ({@link BatchRetries}). */
    @POST
    @Path("{id}/retry")
    @Consumes(MediaType.WILDCARD)
    public Response retry(@PathParam("id") String id, byte[] body) {
        return gate.checkSize(length(body)).map(BatchesResource::refused)
                .orElseGet(() -> answer(retries.retry(id, caller.owners())));
    }

    /** The output file as it is now, one page (chunk) at a time ({@link BatchFilePages}). */
    @GET
    @Path("{id}/output")
    @Produces({JSONL, MediaType.APPLICATION_JSON})
    public Response output(@PathParam("id") String id, @QueryParam("page") String page) {
        return answer(pages.page(id, caller.owners(), BatchLayout.File.OUTPUT, page));
    }

    /** The error file as it is now, one page (chunk) at a time. */
    @GET
    @Path("{id}/errors")
    @Produces({JSONL, MediaType.APPLICATION_JSON})
    public Response errors(@PathParam("id") String id, @QueryParam("page") String page) {
        return answer(pages.page(id, caller.owners(), BatchLayout.File.ERRORS, page));
    }

    private static int length(byte[] body) {
        return body == null ? 0 : body.length;
    }

    private static Response uploaded(UploadOutcome outcome) {
        if (outcome instanceof UploadOutcome.Granted granted) {
            return ApiResponses.json(200, granted.upload());
        }
        if (outcome instanceof UploadOutcome.Rejected rejected) {
            return ApiResponses.json(400, new ErrorResponse(rejected.errors(), null, null));
        }
        UploadOutcome.TooMany tooMany = (UploadOutcome.TooMany) outcome;
        return ApiResponses.uploadsExceeded(tooMany.perHour(), tooMany.retryAfter());
    }

    private static Response refused(RequestGate.Refusal refusal) {
        return ApiResponses.error(refusal.status(), refusal.error());
    }

    private static Response answer(BatchOutcome outcome) {
        if (outcome instanceof BatchOutcome.Found found) {
            return ApiResponses.json(200, found.batch());
        }
        if (outcome instanceof BatchOutcome.Rejected rejected) {
            return ApiResponses.json(400, new ErrorResponse(rejected.errors(), null, null));
        }
        if (outcome instanceof BatchOutcome.NotFound notFound) {
            return ApiResponses.error(404, new FieldError("batch_id", ApiErrorCodes.NOT_FOUND, "no batch "
                    + notFound.batchId()));
        }
        if (outcome instanceof BatchOutcome.InvalidId) {
            return ApiResponses.error(400, new FieldError("batch_id", ErrorCodes.INVALID_FORMAT,
                    "a batch id is batch_ followed by a UUID v4"));
        }
        if (outcome instanceof BatchOutcome.QuotaExceeded exceeded) {
            return ApiResponses.quotaExceeded(exceeded.kind(), exceeded.limit(), exceeded.retryAfter(), null);
        }
        if (outcome instanceof BatchOutcome.NotCancellable notCancellable) {
            return ApiResponses.json(409, new ErrorResponse(List.of(new FieldError("status",
                    ApiErrorCodes.NOT_CANCELLABLE, "batch " + notCancellable.batch().id() + " is "
                            + notCancellable.batch().status() + " and can no longer be cancelled")), null, null));
        }
        if (outcome instanceof BatchOutcome.Conflict conflict) {
            return ApiResponses.error(409, conflict.error());
        }
        if (outcome instanceof BatchOutcome.FilePage page) {
            return filePage(page);
        }
        return ApiResponses.unavailable(((BatchOutcome.Unavailable) outcome).message(), null);
    }

    /** A page of JSON lines; {@code Link: <...?page=n+1>; rel="next"} (RFC 8288) while more pages follow. */
    private static Response filePage(BatchOutcome.FilePage page) {
        Response.ResponseBuilder answer = Response.ok(page.jsonl(), JSONL)
                .header(PAGES_HEADER, Integer.toString(page.pages()));
        if (page.page() + 1 < page.pages()) {
            answer.header("Link", "<?page=" + (page.page() + 1) + ">; rel=\"next\"");
        }
        return answer.build();
    }
}
