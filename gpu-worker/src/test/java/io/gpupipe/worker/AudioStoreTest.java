package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.worker.backend.Wav;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/** The worker's speech audio in the job store (adapters' {@link S3JobStore}) against S3Proxy, read back as WAV. */
class AudioStoreTest {
    private static LocalAws aws;
    private static S3Client s3;
    private static S3JobStore store;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        store = new S3JobStore(s3, null, aws.bucket());
    }

    @AfterAll
    static void stop() {
        s3.close();
        aws.close();
    }

    @Test
    void audio_shouldBeCreateOnly_andReadableByItsHeader() {
        String id = UUID.randomUUID().toString();
        byte[] wav = Wav.pcm16(new byte[3200], 16_000, 1);
        assertThat(store.putAudioIfAbsent(id, wav)).isTrue();
        assertThat(store.putAudioIfAbsent(id, Wav.pcm16(new byte[64], 8_000, 1))).isFalse();
        byte[] head = store.readAudioHead(id, 4096).orElseThrow();
        assertThat(Wav.parse(head).orElseThrow().declaredDurationMs()).isEqualTo(100);
    }
}
