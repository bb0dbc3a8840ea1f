package io.gpupipe.model;

/**
 * The slot of its owner's limit on unfinished jobs that a job holds: slot {@code number}, as written with
 * {@code eTag}. The job's marker names it, so whoever ends the job (notifier, cancel, a take-back) frees exactly that
 * version of the slot and never one another job claimed since.
 */
public record QuotaSlot(int number, String eTag) {
    public QuotaSlot {
        if (number < 0 || eTag == null || eTag.isBlank()) {
            throw new IllegalArgumentException("a slot has a number of 0 or more and an ETag");
        }
    }
}
