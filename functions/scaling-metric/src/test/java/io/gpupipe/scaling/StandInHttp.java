package io.gpupipe.scaling;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;

/** Small helpers shared by the AWS stand-ins. */
final class StandInHttp {
    private StandInHttp() {
    }

    /** The request body, gunzipped when the SDK compressed it (CloudWatch PutMetricData does above 10 KiB). */
    static byte[] body(HttpExchange exchange) throws IOException {
        byte[] raw = exchange.getRequestBody().readAllBytes();
        if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
                return in.readAllBytes();
            }
        }
        return raw;
    }

    /** True when the request carries a SigV4 Authorization for {@code service} (signature not recomputed). */
    static boolean signedFor(HttpExchange exchange, String service) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        return authorization != null && authorization.startsWith("AWS4-HMAC-SHA256 Credential=")
                && authorization.contains("/" + service + "/aws4_request");
    }

    static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
