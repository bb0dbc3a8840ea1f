package io.gpupipe.notifier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobStatus;
import org.junit.jupiter.api.Test;

class ResultDocumentTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";

    @Test
    void decodeKey_shouldUndoS3EventEncoding() {
        assertThat(ResultDocument.decodeKey("results/a+b%2Bc.json")).isEqualTo("results/a b+c.json");
    }

    @Test
    void requestIdOfKey_shouldAcceptOnlyResultJsonKeys() {
        assertThat(ResultDocument.requestIdOfKey("results/" + ID + ".json")).hasValue(ID);
        assertThat(ResultDocument.requestIdOfKey("results/" + ID.toUpperCase() + ".json")).hasValue(ID);
        assertThat(ResultDocument.requestIdOfKey("results/" + ID + ".wav")).isEmpty();
        assertThat(ResultDocument.requestIdOfKey("jobs/" + ID + ".json")).isEmpty();
        assertThat(ResultDocument.requestIdOfKey("results/not-a-uuid.json")).isEmpty();
    }

    @Test
    void parse_shouldReturnResult_whenDocumentIsAValidResult() {
        String body = "{\"requestId\":\"" + ID + "\",\"status\":\"failed\",\"error\":{\"code\":\"expired\"}}";

        ResultDocument.Parsed parsed = ResultDocument.parse(body, ID);

        assertThat(parsed).isInstanceOf(ResultDocument.Parsed.Usable.class);
        assertThat(((ResultDocument.Parsed.Usable) parsed).result().status()).isEqualTo(JobStatus.FAILED);
    }

    @Test
    void parse_shouldExplain_whenDocumentIsUnusable() {
        assertThat(reason(ResultDocument.parse("not json", ID))).contains("not a JSON job result");
        assertThat(reason(ResultDocument.parse("", ID))).contains("empty");
        assertThat(reason(ResultDocument.parse("{\"requestId\":\"" + ID + "\",\"status\":\"running\"}", ID)))
                .contains("not a JSON job result");
        assertThat(reason(ResultDocument.parse("{\"status\":\"succeeded\"}", ID))).contains("not a JSON job result");
        assertThat(reason(ResultDocument.parse("[1,2]", ID))).contains("not a JSON job result");
        assertThat(reason(ResultDocument.parse("{\"requestId\":\"1b4e28ba-2fa1-41d2-883f-0016d3cca427\","
                + "\"status\":\"succeeded\"}", ID))).contains("does not match");
    }

    private static String reason(ResultDocument.Parsed parsed) {
        assertThat(parsed).isInstanceOf(ResultDocument.Parsed.Unusable.class);
        return ((ResultDocument.Parsed.Unusable) parsed).reason();
    }
}
