package io.gpupipe.localaws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.seal.DeploymentKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local stack's deployment key: a file created once in its data directory, readable by its owner only. */
class LocalDeploymentKeyTest {

    @Test
    void createIfAbsent_shouldCreateAnOwnerOnlyKeyOnce_andKeepItAcrossRestarts(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("data").resolve(LocalDeploymentKey.FILE_NAME);

        DeploymentKey first = LocalDeploymentKey.createIfAbsent(file);
        DeploymentKey again = LocalDeploymentKey.createIfAbsent(file);

        assertThat(again).isEqualTo(first);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(Set.of(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE));
        assertThat(List.of(dir.resolve("data").toFile().list())).containsExactly(LocalDeploymentKey.FILE_NAME);
    }
}
