package io.gpupipe.router;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.quota.QuotaKind;
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
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The batch API in OpenAI's format: upload an input file (a presigned PUT), create a batch naming it, read its
 * status and counts, cancel it ({@code DELETE}, or OpenAI's {@code POST .../cancel}); each for the caller API
 * Gateway's authorizer names ({@link Callers}). A body on a route that takes none is still held to the size limit.
 */
@Path("/v1/batches")
@Produces(MediaType.APPLICATION_JSON)
public class BatchesResource {
    private final BatchService service;
    private final RequestGate gate;
    private final Callers callers;
    private final SubmissionBudget budget;

    BatchesResource(BatchService service, RequestGate gate, Callers callers, SubmissionBudget budget) {
        this.budget = budget;
        this.service = service;
        this.gate = gate;
        this.callers = callers;
    }

    @POST
    @Path("uploads")
    @Consumes(MediaType.WILDCARD)
    public Response upload(byte[] body) {
        return callers.asOwner(owner -> gate.checkSize(length(body)).map(BatchesResource::refused)
                .orElseGet(() -> ApiResponses.json(200, service.upload(owner))));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response create(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        return callers.asOwner(owner -> {
            Optional<RequestGate.Refusal> refusal = gate.check(contentType, length(body));
            if (refusal.isPresent()) {
                return refused(refusal.get());
            }
            Optional<SubmissionBudget.Exceeded> overBudget = budget.check(owner);
            if (overBudget.isPresent()) {
                return ApiResponses.budgetExceeded(overBudget.get());
            }
            return answer(service.create(length(body) == 0 ? "" : new String(body, StandardCharsets.UTF_8), owner));
        });
    }

    @GET
    @Path("{id}")
    public Response status(@PathParam("id") String id) {
        return callers.asOwner(owner -> answer(service.get(id, owner)));
    }

    @DELETE
    @Path("{id}")
    public Response cancel(@PathParam("id") String id) {
        return callers.asOwner(owner -> answer(service.cancel(id, owner)));
    }

    /** OpenAI's cancel ({@code POST /v1/batches/{batch_id}/cancel}), for its SDKs. */
    @POST
    @Path("{id}/cancel")
    @Consumes(MediaType.WILDCARD)
    public Response cancelOpenAi(@PathParam("id") String id, byte[] body) {
        return callers.asOwner(owner -> gate.checkSize(length(body)).map(BatchesResource::refused)
                .orElseGet(() -> answer(service.cancel(id, owner))));
    }

    private static int length(byte[] body) {
        return body == null ? 0 : body.length;
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
            return ApiResponses.quotaExceeded(QuotaKind.BATCHES, exceeded.limit(), exceeded.retryAfter(), null);
        }
        if (outcome instanceof BatchOutcome.NotCancellable notCancellable) {
            return ApiResponses.json(409, new ErrorResponse(List.of(new FieldError("status",
                    ApiErrorCodes.NOT_CANCELLABLE, "batch " + notCancellable.batch().id() + " is "
                            + notCancellable.batch().status() + " and can no longer be cancelled")), null, null));
        }
        return ApiResponses.unavailable(((BatchOutcome.Unavailable) outcome).message(), null);
    }
}
