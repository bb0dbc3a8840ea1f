package io.gpupipe.submission.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
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

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        objects = new S3Objects(s3, null, aws.bucket());
    }

    @AfterAll
    static void stopLocalAws() {
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
