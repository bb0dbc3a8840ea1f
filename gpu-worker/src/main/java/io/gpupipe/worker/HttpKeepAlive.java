package io.gpupipe.worker;

/**
 * The keep-alive cache of the JDK's HttpURLConnection, which the worker's SQS and S3 clients use (the URL connection
 * client): by default it keeps at most 5 idle connections per host, fewer than the jobs of one window call S3 at once
 * (up to two calls each), so connections were closed and reopened all the time: a TCP connect each locally, a TLS
 * handshake each against S3. 16 threads calling one local endpoint opened 226 connections per 4,000 calls and spent
 * 25 % more CPU on both sides than with a cache that fits them. Sized for a window of 64 jobs.
 */
public final class HttpKeepAlive {
    /** The JDK's system property (read once, when the first connection is kept). */
    public static final String PROPERTY = "http.maxConnections";
    public static final int IDLE_CONNECTIONS_PER_HOST = 128;

    private HttpKeepAlive() {
    }

    /** Sets the cache size unless the operator did ({@code -Dhttp.maxConnections}); call before any HTTP call. */
    public static void configure() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, Integer.toString(IDLE_CONNECTIONS_PER_HOST));
        }
    }
}
