package io.gpupipe.localstack;

import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Fetches a text model once into a cache directory and trusts it only if its SHA-256 is the pinned one: a cached
 * file is re-checked on every use, a download goes to a {@code .part} file that becomes the cached file only after
 * the check, and a mismatching file is deleted and refused.
 */
public final class TextModelDownloader {
    private static final long PROGRESS_STEP = 10;

    private final HttpClient http;
    private final Console console;

    public TextModelDownloader(Console console) {
        this(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(20)).build(), console);
    }

    TextModelDownloader(HttpClient http, Console console) {
        this.http = http;
        this.console = console;
    }

    /** The cached model for {@code url}, downloading it first when absent or not matching {@code sha256}. */
    public Path fetch(URI url, String sha256, Path cacheDir) {
        Path target = cacheDir.resolve(fileName(url));
        String expected = sha256.toLowerCase(Locale.ROOT);
        try {
            Files.createDirectories(cacheDir);
            if (Files.isRegularFile(target)) {
                if (expected.equals(sha256Of(target))) {
                    console.info("text model: using the cached " + target + " (SHA-256 verified)");
                    return target;
                }
                console.info("text model: cached " + target + " does not match the pinned SHA-256; downloading again");
                Files.delete(target);
            }
            return download(url, expected, target);
        } catch (IOException e) {
            throw new StartupException("cannot download the text model from " + url + " (" + e.getMessage()
                    + "); check the network or pass a local file with --text-model PATH", e);
        }
    }

    private Path download(URI url, String expected, Path target) throws IOException {
        console.info("text model: downloading " + url + " into " + target.getParent());
        Path part = target.resolveSibling(target.getFileName() + ".part");
        HttpResponse<InputStream> response = send(url);
        if (response.statusCode() != 200) {
            response.body().close();
            throw new StartupException("text model download from " + url + " answered HTTP " + response.statusCode()
                    + "; check --text-model-url or pass a local file with --text-model PATH");
        }
        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
        MessageDigest digest = sha256();
        try (InputStream in = response.body(); OutputStream out = Files.newOutputStream(part)) {
            byte[] buffer = new byte[64 * 1024];
            long done = 0;
            long nextReport = PROGRESS_STEP;
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                digest.update(buffer, 0, n);
                done += n;
                if (length > 0 && done * 100 / length >= nextReport) {
                    console.info(String.format(Locale.ROOT, "text model: %d%% (%.1f of %.1f MB)",
                            done * 100 / length, done / 1e6, length / 1e6));
                    nextReport = done * 100 / length + PROGRESS_STEP;
                }
            }
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw e;
        }
        String actual = HexFormat.of().formatHex(digest.digest());
        if (!expected.equals(actual)) {
            Files.deleteIfExists(part);
            throw new StartupException("refused the text model downloaded from " + url + ": its SHA-256 is " + actual
                    + ", expected " + expected + " (file deleted); check --text-model-url and --text-model-sha256");
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        console.info("text model: saved " + target + " (SHA-256 verified)");
        return target;
    }

    private HttpResponse<InputStream> send(URI url) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(url).timeout(Duration.ofMinutes(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static String fileName(URI url) {
        String path = url.getPath() == null ? "" : url.getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.isBlank() ? "text-model.gguf" : name;
    }

    static String sha256Of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Digests.sha256Hex(in);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }
}
