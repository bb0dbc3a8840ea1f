package io.gpupipe.localstack;

import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Which GGUF file the embedded workers load for text jobs, checked before anything starts. */
public final class TextModels {
    private static final byte[] GGUF_MAGIC = "GGUF".getBytes(StandardCharsets.US_ASCII);

    private TextModels() {
    }

    /** The model file to use, or null when text jobs will fail with {@code model_unavailable}. */
    public static Path resolve(LaunchOptions options, Console console) {
        if (options.backend() != Backend.EMBEDDED) {
            return null;
        }
        if (options.downloadTextModel()) {
            Path cached = new TextModelDownloader(console).fetch(options.textModelUrl(), options.textModelSha256(),
                    options.cacheDir());
            return checkReadable(cached);
        }
        return options.textModel() == null ? null : checkReadable(options.textModel());
    }

    /** The absolute path of a readable GGUF file, or a one-line {@link StartupException} saying what is wrong. */
    public static Path checkReadable(Path model) {
        Path file = model.toAbsolutePath().normalize();
        String fix = "; pass a readable .gguf file with --text-model PATH (or GPUPIPE_TEXT_MODEL), "
                + "or use --download-text-model";
        if (!Files.exists(file)) {
            throw new StartupException("text model " + file + " does not exist" + fix);
        }
        if (!Files.isRegularFile(file)) {
            throw new StartupException("text model " + file + " is not a file" + fix);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(GGUF_MAGIC.length);
            if (!Arrays.equals(magic, GGUF_MAGIC)) {
                throw new StartupException("text model " + file + " is not a GGUF file (it does not start with "
                        + "\"GGUF\")" + fix);
            }
        } catch (IOException e) {
            throw new StartupException("text model " + file + " is not readable (" + e.getMessage() + ")" + fix, e);
        }
        return file;
    }
}
