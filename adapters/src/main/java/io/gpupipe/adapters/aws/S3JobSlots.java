package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.port.JobSlots;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link JobSlots} as one small object per slot in the results bucket: claimed create-only
 * ({@code If-None-Match: *}), freed with DeleteObject {@code If-Match} on the ETag its holder wrote, found free by
 * one ListObjectsV2 of the caller's slot keys ("Conditional writes" and "How to perform conditional deletes", Amazon
 * S3 User Guide; S3 lists are strongly consistent).
 */
public final class S3JobSlots implements JobSlots {
    private static final String JSON = "application/json";

    private final S3Objects objects;

    public S3JobSlots(S3Client s3, String bucket) {
        this.objects = new S3Objects(s3, null, bucket);
    }

    @Override
    public Optional<String> claim(Owner owner, int number, SlotHolder holder) {
        return objects.createOnly(QuotaKind.JOBS.slotKey(owner, number), JSON,
                RequestBody.fromString(JobJson.write(holder)));
    }

    @Override
    public SortedSet<Integer> taken(Owner owner, int first, int count) {
        String startAfter = first == 0 ? null : QuotaKind.JOBS.slotKey(owner, first - 1);
        SortedSet<Integer> taken = new TreeSet<>();
        for (String key : objects.keys(QuotaKind.JOBS.slotPrefix(owner), startAfter, count)) {
            int number = QuotaKind.slotNumber(key);
            if (number >= first && number < first + count) {
                taken.add(number);
            }
        }
        return taken;
    }

    @Override
    public Optional<StoredSlot> read(Owner owner, int number) {
        return objects.read(QuotaKind.JOBS.slotKey(owner, number)).map(bytes -> new StoredSlot(
                JobJson.read(bytes.asUtf8String(), SlotHolder.class), bytes.response().eTag()));
    }

    @Override
    public boolean free(Owner owner, int number, String eTag) {
        return objects.delete(QuotaKind.JOBS.slotKey(owner, number), eTag);
    }
}
