package io.gpupipe.router;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.router.internal.RequestGate;
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
 * status and counts, cancel it ({@code DELETE}, or OpenAI's {@code POST .../cancel}).
 */
@Path("/v1/batches")
@Produces(MediaType.APPLICATION_JSON)
public class BatchesResource {
    private final BatchService service;
    private final RequestGate gate;

    BatchesResource(BatchService service, RequestGate gate) {
        this.service = service;
        this.gate = gate;
    }

    @POST
    @Path("uploads")
    public Response upload() {
        return ApiResponses.json(200, service.upload());
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response create(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        int length = body == null ? 0 : body.length;
        Optional<RequestGate.Refusal> refusal = gate.check(contentType, length);
        if (refusal.isPresent()) {
            return ApiResponses.error(refusal.get().status(), refusal.get().error());
        }
        return answer(service.create(length == 0 ? "" : new String(body, StandardCharsets.UTF_8)));
    }

    @GET
    @Path("{id}")
    public Response status(@PathParam("id") String id) {
        return answer(service.get(id));
    }

    @DELETE
    @Path("{id}")
    public Response cancel(@PathParam("id") String id) {
        return answer(service.cancel(id));
    }

    /** OpenAI's cancel ({@code POST /v1/batches/{batch_id}/cancel}), for its SDKs. */
    @POST
    @Path("{id}/cancel")
    @Consumes(MediaType.WILDCARD)
    public Response cancelOpenAi(@PathParam("id") String id) {
        return answer(service.cancel(id));
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
        if (outcome instanceof BatchOutcome.NotCancellable notCancellable) {
            return ApiResponses.json(409, new ErrorResponse(List.of(new FieldError("status",
                    ApiErrorCodes.NOT_CANCELLABLE, "batch " + notCancellable.batch().id() + " is "
                            + notCancellable.batch().status() + " and can no longer be cancelled")), null, null));
        }
        return ApiResponses.unavailable(((BatchOutcome.Unavailable) outcome).message(), null);
    }
}
