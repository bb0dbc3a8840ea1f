package io.gpupipe.localaws;

import io.gpupipe.model.seal.DeploymentKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The local stack's deployment key (in AWS: a Secrets Manager secret the template creates): a file of random bytes
 * created at first start, readable by its owner only, and kept, so a stack restarted on the same data directory keeps
 * its key (and every id derived from it).
 */
public final class LocalDeploymentKey {
    /** The key's file name in the stack's data directory (a dot file: S3Proxy takes directories there as buckets). */
    public static final String FILE_NAME = ".deployment-key";

    private LocalDeploymentKey() {
    }

    /** The key in {@code file}, created with a new random key when there is none yet. */
    public static DeploymentKey createIfAbsent(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
            Path fresh = Files.createTempFile(dir, FILE_NAME, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(fresh, DeploymentKey.generateText(), StandardCharsets.UTF_8);
                Files.move(fresh, file); // no REPLACE_EXISTING: a key already there wins
            } catch (FileAlreadyExistsException e) {
                // kept
            } finally {
                Files.deleteIfExists(fresh);
            }
            return DeploymentKey.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the deployment key " + file + ": " + e.getMessage(), e);
        }
    }
}
