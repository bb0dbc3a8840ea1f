package io.gpupipe.repair;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The handler's answer for one event (the Lambda response): what was logged and whether it paged. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RepairReport(String outcome, String eventId, String detailType, String cluster, String status,
                           String xid, List<Integer> criticalXids, boolean alarm, String alarmMessageId,
                           String reason) {

    public static RepairReport ignored(String eventId, String detailType, String reason) {
        return new RepairReport("ignored", eventId, detailType, null, null, null, null, false, null, reason);
    }
}
