package io.gpupipe.notifier;

import io.gpupipe.jobs.LineLedger;
import java.util.Optional;

/** Where a batch line's end is recorded: the ledger over one results bucket, empty when no batch queue is set. */
@FunctionalInterface
public interface LineLedgers {
    Optional<LineLedger> in(String bucket);
}
