package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The console's one write of its own: the DLQ redrive ({@code {"destination": "<tier queue>"}}), through SQS's
 * message move task. Jobs are submitted by the page straight to the public API.
 */
final class ConsoleWrites {
    /** An HTTP status and JSON body. */
    record Result(int status, JsonNode body) {
    }

    private final QueueWatch queues;
    private final Optional<Redrive> redrive;

    ConsoleWrites(QueueWatch queues, Optional<Redrive> redrive) {
        this.queues = queues;
        this.redrive = redrive;
    }

    /** The console's error document ({@code {"errors": [{"field", "message"}]}}), as the public API writes one. */
    static JsonNode error(String field, String message) {
        var answer = JobJson.mapper().createObjectNode();
        answer.putArray("errors").addObject().put("field", field).put("message", message);
        return answer;
    }

    Result redrive(byte[] request) {
        if (redrive.isEmpty()) {
            return new Result(503, error("destination", "this stack has no DLQ to redrive"));
        }
        String destination;
        try {
            destination = JobJson.read(new String(request, StandardCharsets.UTF_8), JsonNode.class)
                    .path("destination").asText("");
        } catch (RuntimeException e) {
            return new Result(400, error("body", "expected {\"destination\": \"<queue name>\"}"));
        }
        Optional<QueueWatch.QueueRef> queue = queues.queues().stream()
                .filter(q -> !q.deadLetter() && q.name().equals(destination)).findFirst();
        if (queue.isEmpty()) {
            return new Result(400, error("destination", "'" + destination + "' is not a tier queue; "
                    + "one of " + queues.queues().stream().filter(q -> !q.deadLetter()).map(QueueWatch.QueueRef::name)
                    .toList()));
        }
        try {
            String handle = redrive.get().start(queue.get().arn());
            return new Result(202, JobJson.mapper().createObjectNode().put("taskHandle", handle)
                    .put("destination", destination));
        } catch (SqsException e) {
            String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            return new Result(409, error("destination", "SQS refused the move task: " + message));
        }
    }
}
