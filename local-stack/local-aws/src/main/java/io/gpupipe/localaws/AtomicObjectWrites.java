package io.gpupipe.localaws;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import org.gaul.s3proxy.S3Proxy;

/**
 * Makes each write to an object atomic with its precondition, as S3 does: one PUT or DELETE of an object at a time.
 *
 * <p>Why: S3 evaluates {@code If-Match} / {@code If-None-Match} atomically with the write, so of two writers that
 * both match the same ETag exactly one succeeds and the other gets 412 ("Conditional writes", Amazon S3 User Guide).
 * S3Proxy 4.1.0 reads the object's current ETag and then writes, with nothing in between held: all 16 concurrent
 * {@code If-Match} writers of {@code ConditionalWritesTest} succeeded. The router's cancel and the worker's claim
 * both rewrite the same {@code queued} marker conditionally, so on S3Proxy a cancel answered 202 could lose to a
 * worker that then ran the job (seen once in the 10,000-job chaos soak).
 */
final class AtomicObjectWrites implements Filter {
    /** Writes to different objects rarely share a stripe; sharing one only serializes them. */
    private static final int STRIPES = 256;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    private AtomicObjectWrites() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** Adds the filter to the S3Proxy's servlet context; call before {@link S3Proxy#start()}. */
    static void install(S3Proxy proxy) {
        WholeBodyReads.addFilter(proxy, new AtomicObjectWrites());
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        String method = http.getMethod();
        if (!"PUT".equals(method) && !"DELETE".equals(method)) {
            chain.doFilter(request, response);
            return;
        }
        // Path-style addressing: /bucket/key, the same for every write of one object whatever its query string.
        ReentrantLock lock = locks[Math.floorMod(http.getRequestURI().hashCode(), STRIPES)];
        lock.lock();
        try {
            chain.doFilter(request, response);
        } finally {
            lock.unlock();
        }
    }
}
