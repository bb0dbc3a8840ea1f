package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchRequestParserTest {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    private static final String INPUT = BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.fromString("7f6e5d4c-3b2a-4f1e-8d0c-9b8a7f6e5d4c"));

    @Test
    void parse_shouldAcceptOpenAisCreateBody_withOurCallback() {
        // when
        var outcome = BatchRequestParser.parse("{\"input_file_id\":\"" + INPUT + "\",\"endpoint\":"
                + "\"/v1/chat/completions\",\"completion_window\":\"24h\",\"metadata\":{\"description\":"
                + "\"nightly eval job\"},\"callback_url\":\"https://hooks.example.com/batches\"}");

        // then
        BatchRequest request = ((BatchRequestParser.Outcome.Valid) outcome).request();
        assertThat(request.inputFileId()).isEqualTo(INPUT);
        assertThat(request.endpoint()).isEqualTo(BatchEndpoint.CHAT_COMPLETIONS);
        assertThat(request.metadata()).containsEntry("description", "nightly eval job");
        assertThat(request.callbackUrl()).isEqualTo("https://hooks.example.com/batches");
    }

    @Test
    void parse_shouldDefaultTheWindow_whenAbsent() {
        var outcome = BatchRequestParser.parse("{\"input_file_id\":\"" + INPUT + "\",\"endpoint\":\"/v1/audio/speech\"}");

        assertThat(((BatchRequestParser.Outcome.Valid) outcome).request().completionWindow()).isEqualTo("24h");
    }

    @Test
    void parse_shouldNameEveryBadField_atOnce() {
        // when
        var outcome = BatchRequestParser.parse("{\"input_file_id\":\"results/secret.json\",\"endpoint\":"
                + "\"/v1/moderations\",\"completion_window\":\"48h\",\"metadata\":{\"k\":1},\"callback_url\":"
                + "\"http://10.0.0.1/hook\"}");

        // then
        assertThat(((BatchRequestParser.Outcome.Invalid) outcome).errors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("input_file_id", "endpoint", "completion_window", "metadata.k",
                        "callback_url");
    }

    @Test
    void parse_shouldRefuseMissingFieldsAndNonObjects() {
        assertThat(((BatchRequestParser.Outcome.Invalid) BatchRequestParser.parse("{}")).errors())
                .extracting(FieldError::field).containsExactlyInAnyOrder("input_file_id", "endpoint");
        assertThat(((BatchRequestParser.Outcome.Invalid) BatchRequestParser.parse("[1]")).errors())
                .extracting(FieldError::field).containsExactly("body");
        assertThat(((BatchRequestParser.Outcome.Invalid) BatchRequestParser.parse("{")).errors())
                .extracting(FieldError::code).containsExactly("invalid_format");
    }
}
