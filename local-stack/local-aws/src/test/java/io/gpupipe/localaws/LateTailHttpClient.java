package io.gpupipe.localaws;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP/1.1 client for the SDK that keeps one connection alive and sends the last bytes of each request body after
 * a pause: the worst case of a client whose final write is late, made deterministic. Opens a new connection only when
 * the server announced {@code Connection: close}; {@link #connectionsOpened()} counts them.
 */
final class LateTailHttpClient implements SdkHttpClient {
    private static final int TAIL_BYTES = 4;
    private static final long PAUSE_MILLIS = 300;

    private final List<Socket> sockets = new ArrayList<>();
    private final List<String> contentEncodings = new ArrayList<>();
    private Socket socket;
    private InputStream in;

    int connectionsOpened() {
        return sockets.size();
    }

    /** The Content-Encoding header of each request sent ("" when absent). */
    List<String> contentEncodings() {
        return contentEncodings;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() throws IOException {
                return send(request);
            }

            @Override
            public void abort() {
                close();
            }
        };
    }

    private HttpExecuteResponse send(HttpExecuteRequest request) throws IOException {
        SdkHttpRequest http = request.httpRequest();
        contentEncodings.add(http.firstMatchingHeader("Content-Encoding").orElse(""));
        byte[] body = request.contentStreamProvider().map(LateTailHttpClient::readAll).orElse(new byte[0]);
        if (socket == null) {
            socket = new Socket(http.host(), http.port());
            socket.setSoTimeout(10_000);
            sockets.add(socket);
            in = new BufferedInputStream(socket.getInputStream());
        }
        StringBuilder head = new StringBuilder(http.method().name()).append(' ').append(http.encodedPath());
        http.encodedQueryParameters().ifPresent(query -> head.append('?').append(query));
        head.append(" HTTP/1.1\r\n");
        http.forEachHeader((name, values) -> values.forEach(v -> head.append(name).append(": ").append(v)
                .append("\r\n")));
        head.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        int early = Math.max(0, body.length - TAIL_BYTES);
        out.write(body, 0, early);
        out.flush();
        sleep(); // the late final write this client simulates, not a wait
        out.write(body, early, body.length - early);
        out.flush();
        return readResponse();
    }

    private HttpExecuteResponse readResponse() throws IOException {
        String status = line();
        if (status.isEmpty()) {
            throw new IOException("the server closed the connection without a response");
        }
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.computeIfAbsent(header.substring(0, colon).trim(), k -> new ArrayList<>())
                    .add(header.substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("Content-Length", List.of("0")).get(0));
        byte[] content = in.readNBytes(length);
        if (headers.getOrDefault("Connection", List.of()).contains("close")) {
            close();
        }
        return HttpExecuteResponse.builder()
                .response(SdkHttpResponse.builder().statusCode(Integer.parseInt(status.split(" ")[1]))
                        .headers(headers).build())
                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(content)))
                .build();
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static byte[] readAll(ContentStreamProvider provider) {
        try (InputStream stream = provider.newStream()) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
            socket = null;
        }
    }
}
