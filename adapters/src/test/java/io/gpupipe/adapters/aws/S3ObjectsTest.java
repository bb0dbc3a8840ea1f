package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.ConditionalConflictStandIn;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link S3Objects}' create-only copy against S3Proxy: a copy never replaces what is at its destination. */
class S3ObjectsTest {
    private static LocalAws aws;
    private static S3Client s3;
    private static S3Objects objects;
    private static ConditionalConflictStandIn conflicts;
    private static S3Client conflicting;
    private static S3Objects conflictingObjects;

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        objects = new S3Objects(s3, null, aws.bucket());
        conflicts = new ConditionalConflictStandIn();
        conflicting = aws.newS3Client(List.of(conflicts));
        conflictingObjects = new S3Objects(conflicting, null, aws.bucket());
    }

    @AfterAll
    static void stopLocalAws() {
        conflicting.close();
        s3.close();
        aws.close();
    }

    @Test
    void copyCreateOnly_shouldCopy_whenTheDestinationIsFree() {
        // given
        String from = put("the source");
        String to = key();
        // when
        boolean copied = objects.copyCreateOnly(from, to);
        // then
        assertThat(copied).isTrue();
        assertThat(text(to)).isEqualTo("the source");
    }

    @Test
    void copyCreateOnly_shouldRefuseAndKeepTheDestination_whenSomethingIsThere() {
        // given
        String from = put("the source");
        String to = put("already here");
        // when
        boolean copied = objects.copyCreateOnly(from, to);
        // then
        assertThat(copied).isFalse();
        assertThat(text(to)).isEqualTo("already here");
    }

    @Test
    void copyCreateOnly_shouldRefuseAndWriteNothing_whenTheSourceIsGone() {
        // given
        String to = key();
        // when
        boolean copied = objects.copyCreateOnly(key(), to);
        // then
        assertThat(copied).isFalse();
        assertThat(objects.read(to)).isEmpty();
    }

    @Test
    void createOnly_shouldAnswerExists_whenAConcurrentCreateWins() {
        // given: another create of the key is in progress when this one arrives (S3 answers 409), and completes
        String key = key();
        conflicts.conflictOn(key, () -> objects.put(key, "text/plain", RequestBody.fromString("the other")));
        // when
        Optional<String> eTag = conflictingObjects.createOnly(key, "text/plain", RequestBody.fromString("this one"));
        // then
        assertThat(conflicts.conflictedKeys()).contains(key);
        assertThat(eTag).isEmpty();
        assertThat(text(key)).isEqualTo("the other");
    }

    @Test
    void createOnly_shouldCreate_whenTheConflictingWriteLeftNothing() {
        // given: a concurrent conditional write was in progress and failed (S3 answers 409: retry, "Conditional
        // writes", Amazon S3 User Guide)
        String key = key();
        conflicts.conflictOn(key, () -> { });
        // when
        Optional<String> eTag = conflictingObjects.createOnly(key, "text/plain", RequestBody.fromString("this one"));
        // then
        assertThat(eTag).isPresent();
        assertThat(text(key)).isEqualTo("this one");
    }

    @Test
    void replace_shouldReplace_whenTheConflictingWriteLeftTheVersionAsItWas() {
        // given
        String key = put("first");
        String eTag = objects.read(key).orElseThrow().response().eTag();
        conflicts.conflictOn(key, () -> { });
        // when
        boolean replaced = conflictingObjects.replace(key, "text/plain", "second", eTag);
        // then
        assertThat(replaced).isTrue();
        assertThat(text(key)).isEqualTo("second");
    }

    private static String put(String text) {
        String key = key();
        objects.put(key, "text/plain", RequestBody.fromString(text));
        return key;
    }

    private static String text(String key) {
        return objects.read(key).orElseThrow().asUtf8String();
    }

    private static String key() {
        return "s3-objects-test/" + UUID.randomUUID();
    }
}
