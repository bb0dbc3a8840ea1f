package io.gpupipe.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpupipe.jobs.port.QueueRejectedMessageException;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns every exception, ours and Quarkus REST's own (unknown path, wrong method, media type, JSON), into the API's
 * error body, so that no client mistake ever reads as a 500 and no error escapes in another shape.
 */
public class ApiExceptionMappers {
    private static final Logger LOG = Logger.getLogger(ApiExceptionMappers.class);

    @ServerExceptionMapper
    public Response storeUnavailable(StoreUnavailableException e) {
        LOG.errorf("results bucket unavailable: %s", e.getMessage());
        return ApiResponses.unavailable("job storage is unavailable; retry later", null);
    }

    @ServerExceptionMapper
    public Response queueUnavailable(QueueUnavailableException e) {
        LOG.errorf("queue unavailable: %s", e.getMessage());
        return ApiResponses.unavailable("the job queue is unavailable; retry later", null);
    }

    @ServerExceptionMapper
    public Response queueRejected(QueueRejectedMessageException e) {
        LOG.errorf(e, "SQS refused a message the router built (a bug, not an outage): %s", e.getMessage());
        return ApiResponses.json(500, new ErrorResponse(List.of(new FieldError("service",
                ApiErrorCodes.INTERNAL_ERROR, "internal error: the job queue refused the message; the job was not"
                        + " accepted")), null, false));
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return ApiResponses.error(400, new FieldError("body", ErrorCodes.INVALID_FORMAT,
                "request body is not valid JSON: " + e.getOriginalMessage()));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        return ApiResponses.error(status, switch (status) {
            case 404 -> new FieldError("path", ApiErrorCodes.NOT_FOUND, "no such resource");
            case 405 -> new FieldError("method", ApiErrorCodes.METHOD_NOT_ALLOWED, "method not allowed here");
            case 406 -> new FieldError("Accept", ApiErrorCodes.NOT_ACCEPTABLE, "responses are application/json");
            case 413 -> new FieldError("body", ApiErrorCodes.PAYLOAD_TOO_LARGE, "request body is too large");
            case 415 -> new FieldError("Content-Type", ApiErrorCodes.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type must be application/json");
            default -> new FieldError("body", ErrorCodes.INVALID_FORMAT, "bad request");
        });
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        LOG.error("unexpected failure", e);
        return ApiResponses.error(500, new FieldError("service", ApiErrorCodes.INTERNAL_ERROR,
                "internal error"));
    }
}
