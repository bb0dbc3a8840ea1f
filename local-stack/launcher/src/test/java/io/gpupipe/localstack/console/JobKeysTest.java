package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.job.JobLayout;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobKeysTest {
    private static final String ID = UUID.randomUUID().toString();

    @Test
    void of_shouldReadEveryJobObjectOfTheLayout() {
        assertThat(JobKeys.of(JobLayout.markerKey(ID))).contains(new JobKeys(ID, JobKeys.Kind.MARKER, null));
        assertThat(JobKeys.of(JobLayout.resultKey(ID))).contains(new JobKeys(ID, JobKeys.Kind.RESULT, null));
        assertThat(JobKeys.of(JobLayout.audioKey(ID))).contains(new JobKeys(ID, JobKeys.Kind.AUDIO, null));
        assertThat(JobKeys.of(JobLayout.notificationKey(ID, "callback")))
                .contains(new JobKeys(ID, JobKeys.Kind.NOTIFICATION, "callback"));
    }

    @Test
    void of_shouldIgnoreOtherObjects_andKeysWithoutARequestId() {
        assertThat(JobKeys.of(JobLayout.payloadKey(ID))).isEmpty();
        assertThat(JobKeys.of("cache/abc.json")).isEmpty();
        assertThat(JobKeys.of("results/not-a-uuid.json")).isEmpty();
        assertThat(JobKeys.of("jobs/.json")).isEmpty();
        assertThat(JobKeys.of("notifications/" + ID + ".json")).isEmpty();
    }
}
