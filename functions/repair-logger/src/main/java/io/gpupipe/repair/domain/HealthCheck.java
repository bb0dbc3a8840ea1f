package io.gpupipe.repair.domain;

/** One entry of a container instance's health checks, e.g. ACCELERATED_COMPUTE / IMPAIRED / "XID_79". */
public record HealthCheck(String type, String status, String statusReason) {

    /** "ACCELERATED_COMPUTE=IMPAIRED (XID_79)". */
    public String describe() {
        String text = (type == null ? "UNKNOWN" : type) + "=" + (status == null ? "UNKNOWN" : status);
        return statusReason == null || statusReason.isBlank() ? text : text + " (" + statusReason + ")";
    }
}
