package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.awaitility.core.ConditionTimeoutException;

/** A client of the local stack's HTTP API, as a user's program would be: plain HTTP and JSON. */
final class ApiClient {
    private final URI base;
    /** The {@code Authorization} header every request carries; null: none. */
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiClient(URI base) {
        this(base, null);
    }

    /** A client that sends {@code authorization} (e.g. {@code Bearer <token>}) with every request. */
    ApiClient(URI base, String authorization) {
        this.base = base;
        this.authorization = authorization;
    }

    /** The same API as a caller with the bearer {@code token}. */
    ApiClient as(String token) {
        return new ApiClient(base, "Bearer " + token);
    }

    /** A status code and the parsed JSON body. */
    record Reply(int status, JsonNode body, HttpHeaders headers) {
        Reply(int status, JsonNode body) {
            this(status, body, HttpHeaders.of(Map.of(), (name, value) -> true));
        }
    }

    Reply submit(String json) {
        return send(HttpRequest.newBuilder(base.resolve("/v1/jobs")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Reply status(String id) {
        return send(HttpRequest.newBuilder(base.resolve("/v1/jobs/" + id)).GET());
    }

    Reply cancel(String id) {
        return send(HttpRequest.newBuilder(base.resolve("/v1/jobs/" + id)).DELETE());
    }

    /** POST of a JSON body to any path of the API. */
    Reply post(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    Reply delete(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).DELETE());
    }

    /** A page of JSON lines (a batch's output or error file), each parsed; an error answer fails. */
    List<JsonNode> jsonLines(String path) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).GET();
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return response.body().lines().map(l -> JobJson.read(l, JsonNode.class)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls a batch until it is terminal (completed, failed, expired, cancelled); a timeout shows the last seen. */
    JsonNode awaitBatch(String id, Duration limit) {
        return await("batch " + id + " to finish").atMost(limit).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get("/v1/batches/" + id).body(), last -> List.of("completed", "failed", "expired",
                        "cancelled").contains(last.path("status").asText()));
    }

    /** Polls the status until it is terminal; every status seen goes to {@code seen}. */
    JsonNode awaitTerminal(String id, Duration limit, Consumer<String> seen) {
        List<String> history = new ArrayList<>();
        try {
            // the first look at once, so the first status is seen; in this thread, as history and seen are not shared
            return await("job " + id + " to finish").atMost(limit).pollInSameThread().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(25)).until(() -> {
                        JsonNode body = status(id).body();
                        String status = body.path("status").asText();
                        if (history.isEmpty() || !history.get(history.size() - 1).equals(status)) {
                            history.add(status);
                            seen.accept(status);
                        }
                        return body;
                    }, body -> List.of("succeeded", "failed", "cancelled").contains(body.path("status").asText()));
        } catch (ConditionTimeoutException e) {
            return fail("job " + id + " did not finish within " + limit + "; statuses seen: " + history, e);
        }
    }

    JsonNode awaitTerminal(String id, Duration limit) {
        return awaitTerminal(id, limit, s -> { });
    }

    /** Uploads a batch input file through the presigned PUT the API hands out; answers its input_file_id. */
    String uploadBatchInput(byte[] content) {
        JsonNode upload = post("/v1/batches/uploads", "{\"bytes\":" + content.length + "}").body();
        HttpResponse<String> put = exchange(HttpRequest.newBuilder(URI.create(upload.path("upload_url").asText()))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)));
        if (put.statusCode() != 200) {
            fail("the presigned upload answered " + put.statusCode() + ": " + put.body());
        }
        return upload.path("input_file_id").asText();
    }

    /** The JSON lines of a presigned file link (none when the batch wrote no such file). */
    List<JsonNode> downloadLines(String url) {
        if (url == null) {
            return List.of();
        }
        return exchange(HttpRequest.newBuilder(URI.create(url)).GET()).body().lines()
                .map(l -> JobJson.read(l, JsonNode.class)).toList();
    }

    private HttpResponse<String> exchange(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? JobJson.mapper().createObjectNode()
                    : JobJson.mapper().readTree(response.body());
            return new Reply(response.statusCode(), body, response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
