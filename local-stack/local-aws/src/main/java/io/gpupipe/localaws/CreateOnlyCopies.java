package io.gpupipe.localaws;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;

/**
 * Refuses a CopyObject with {@code If-None-Match: *} whose destination exists, as S3 does: "Copies the object only if
 * the object key name at the destination does not already exist in the bucket specified. Otherwise, Amazon S3
 * returns a 412 Precondition Failed error" (S3 API reference, CopyObject, {@code If-None-Match}).
 *
 * <p>Why: S3Proxy 4.1.0 honours {@code If-None-Match} on PutObject but ignores it on CopyObject and overwrites the
 * destination ({@code S3ObjectsTest} red without this filter), so the router's create-only audio copy on a cache hit
 * looked safe locally whatever it did. Installed after {@link AtomicObjectWrites}, so the existence check and the
 * copy run under the destination's lock, atomic as on S3. Checked before S3Proxy authenticates the request: a
 * stand-in difference only for unsigned requests, which nothing here sends.
 */
final class CreateOnlyCopies implements Filter {
    private static final String COPY_SOURCE = "x-amz-copy-source";

    private final BlobStore store;

    private CreateOnlyCopies(BlobStore store) {
        this.store = store;
    }

    /** Adds the filter to the S3Proxy's servlet context; call after {@link AtomicObjectWrites#install}. */
    static void install(S3Proxy proxy, BlobStore store) {
        WholeBodyReads.addFilter(proxy, new CreateOnlyCopies(store));
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if ("PUT".equals(http.getMethod()) && http.getHeader(COPY_SOURCE) != null
                && "*".equals(http.getHeader("If-None-Match")) && destinationExists(http)) {
            preconditionFailed((HttpServletResponse) response, http.getRequestURI());
            return;
        }
        chain.doFilter(request, response);
    }

    /** Path-style addressing, as every client here uses: {@code /bucket/key}, percent-encoded. */
    private boolean destinationExists(HttpServletRequest http) {
        String path = URI.create(http.getRequestURI()).getPath();
        int slash = path.indexOf('/', 1);
        if (slash < 0 || slash == path.length() - 1) {
            return false;
        }
        return store.blobExists(path.substring(1, slash), path.substring(slash + 1));
    }

    /** S3's error body for a failed precondition (REST error responses: Code, Message, Condition, RequestId). */
    private static void preconditionFailed(HttpServletResponse response, String resource) throws IOException {
        String requestId = UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase();
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>PreconditionFailed</Code>"
                + "<Message>At least one of the pre-conditions you specified did not hold</Message>"
                + "<Condition>If-None-Match</Condition><Resource>" + resource + "</Resource><RequestId>" + requestId
                + "</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_PRECONDITION_FAILED);
        response.setHeader("x-amz-request-id", requestId);
        response.setContentType("application/xml");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
