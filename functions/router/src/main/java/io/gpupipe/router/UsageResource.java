package io.gpupipe.router;

import io.gpupipe.router.UsageService.Outcome;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /v1/usage?start=&end=&groupBy=day|tier|model}: the calling owner's usage (jobs by status, tokens,
 * inference seconds, cache hits, estimated cost), never another's ({@link Callers}).
 */
@Path("/v1/usage")
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {
    private final UsageService service;
    private final CurrentCaller caller;

    UsageResource(UsageService service, CurrentCaller caller) {
        this.service = service;
        this.caller = caller;
    }

    @GET
    public Response usage(@QueryParam("start") String start, @QueryParam("end") String end,
                          @QueryParam("groupBy") String groupBy) {
        Outcome outcome = service.usage(caller.owner(), start, end, groupBy);
        if (outcome instanceof Outcome.Invalid invalid) {
            return ApiResponses.json(400, new ErrorResponse(invalid.errors(), null, null));
        }
        return ApiResponses.json(200, ((Outcome.Answered) outcome).report());
    }
}
