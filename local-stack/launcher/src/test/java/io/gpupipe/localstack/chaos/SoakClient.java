package io.gpupipe.localstack.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.seal.MessageSeal;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The soak's clients, as real ones behave: submit over HTTP and, on a 5xx or a dropped connection, resubmit the same
 * requestId with backoff until the API answers 2xx (accepted) or 4xx (refused); cancel; read the status. And a
 * producer that writes straight to a tier queue (direct submissions, duplicate deliveries, poison).
 */
public final class SoakClient {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI api;
    private final HttpClient http;
    private final SqsClient sqs;
    private final Duration giveUpAfter;

    public SoakClient(URI api, SqsClient sqs, Duration giveUpAfter) {
        this.api = api;
        this.sqs = sqs;
        this.giveUpAfter = giveUpAfter;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Submits until accepted or refused (or {@code giveUpAfter}); records every answer on {@code job}. */
    public void submit(SoakJob job, String body) {
        job.submitted(System.nanoTime());
        long deadline = System.nanoTime() + giveUpAfter.toNanos();
        long backoffMs = 100;
        while (System.nanoTime() < deadline) {
            int status = send(HttpRequest.newBuilder(api.resolve("/v1/jobs")).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(body))).status();
            if (status >= 200 && status < 300) {
                job.accepted();
                return;
            }
            if (status >= 400 && status < 500) {
                job.rejected(status);
                return;
            }
            job.serverError();
            sleep(backoffMs);
            backoffMs = Math.min(5_000, backoffMs * 2);
        }
    }

    /** DELETE /v1/jobs/{id}; a 202 means the job is cancelled and will never run. */
    public void cancel(SoakJob job) {
        for (int attempt = 0; attempt < 20; attempt++) {
            int status = send(HttpRequest.newBuilder(api.resolve("/v1/jobs/" + job.requestId())).DELETE()).status();
            if (status == 202) {
                job.cancelAccepted();
                return;
            }
            if (status < 500) {
                return;
            }
            sleep(200);
        }
    }

    /** The status the API reports, or empty when it could not answer. */
    public Optional<String> status(String requestId) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Reply reply = send(HttpRequest.newBuilder(api.resolve("/v1/jobs/" + requestId)).GET());
            if (reply.status() == 200 || reply.status() == 404) {
                return Optional.of(reply.status() == 404 ? "not-found" : reply.body().path("status").asText());
            }
            sleep(200);
        }
        return Optional.empty();
    }

    /** Sends {@code body} straight to a queue, as a producer (no seal), retrying while SQS is unreachable. */
    public void sendToQueue(String queueUrl, String body) {
        sendToQueue(queueUrl, body, Map.of());
    }

    /** Sends {@code body} as the router does, sealed with {@code seals}, so it keeps the owner it names. */
    public void sendSealed(String queueUrl, String body, MessageSeal seals) {
        sendToQueue(queueUrl, body, Map.of(MessageAttributes.SEAL, MessageAttributeValue.builder().dataType("String")
                .stringValue(seals.seal(body)).build()));
    }

    private void sendToQueue(String queueUrl, String body, Map<String, MessageAttributeValue> attributes) {
        long deadline = System.nanoTime() + giveUpAfter.toNanos();
        while (true) {
            try {
                sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body).messageAttributes(attributes));
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(500);
            }
        }
    }

    private record Reply(int status, JsonNode body) {
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(REQUEST_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), parse(response.body()));
        } catch (IOException e) {
            return new Reply(599, JobJson.mapper().createObjectNode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return JobJson.mapper().readTree(body.isBlank() ? "{}" : body);
        } catch (IOException e) {
            return JobJson.mapper().createObjectNode();
        }
    }

    /** Sleeps until {@code System.nanoTime()} reaches {@code nanos}. */
    public static void sleepUntil(long nanos) {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            sleep(wait / 1_000_000);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
