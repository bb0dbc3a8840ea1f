package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.worker.backend.Wav;
import io.gpupipe.worker.support.LocalPipeline;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The worker's speech audio in the job store (the adapters' {@link S3JobStore}) against S3Proxy, read back as the
 * worker reads it: its WAV header. Here rather than with the store's other tests because {@link Wav} is the worker's.
 */
class AudioStoreTest {

    @Test
    void audio_shouldBeCreateOnly_andReadableByItsHeader() {
        try (LocalAws aws = LocalAws.start(); LocalPipeline pipeline = new LocalPipeline(aws)) {
            S3JobStore store = new S3JobStore(pipeline.s3(), aws.bucket());
            String id = UUID.randomUUID().toString();
            byte[] wav = Wav.pcm16(new byte[3200], 16_000, 1);
            assertThat(store.putAudioIfAbsent(id, wav)).isTrue();
            assertThat(store.putAudioIfAbsent(id, Wav.pcm16(new byte[64], 8_000, 1))).isFalse();
            byte[] head = store.readAudioHead(id, 4096).orElseThrow();
            assertThat(Wav.parse(head).orElseThrow().declaredDurationMs()).isEqualTo(100);
        }
    }
}
