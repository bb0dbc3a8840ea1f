package io.gpupipe.model.usage;

import io.gpupipe.model.owner.Owner;
import java.time.LocalDate;
import java.util.Optional;

/**
 * Where usage lives in the results bucket: one record per ended job of a caller,
 * {@code usage/records/{owner hash}/{yyyy-mm-dd}/{record file name}} (written once by the result notifier; a
 * repeated event writes the same key), and one summary per caller and settled day,
 * {@code usage/summaries/{owner hash}/{yyyy-mm-dd}.json} (written by the first usage query that needs the day, taken
 * back by the notifier when a late record arrives).
 */
public final class UsageLayout {
    public static final String USAGE_PREFIX = "usage/";
    public static final String RECORDS_PREFIX = USAGE_PREFIX + "records/";
    public static final String SUMMARIES_PREFIX = USAGE_PREFIX + "summaries/";
    private static final String JSON_SUFFIX = ".json";

    private UsageLayout() {
    }

    /** The key of {@code record} of {@code owner} (a caller). */
    public static String recordKey(Owner owner, UsageRecord record) {
        return dayPrefix(owner, record.day()) + record.fileName();
    }

    /** The prefix under which {@code owner}'s records of {@code day} are listed. */
    public static String dayPrefix(Owner owner, LocalDate day) {
        return RECORDS_PREFIX + owner.hex() + "/" + day + "/";
    }

    /** The key of {@code owner}'s summary of {@code day}. */
    public static String summaryKey(Owner owner, LocalDate day) {
        return SUMMARIES_PREFIX + owner.hex() + "/" + day + JSON_SUFFIX;
    }

    /** The file name part of a listed record key under {@code dayPrefix}, if it is one. */
    public static Optional<String> fileNameOf(String dayPrefix, String key) {
        if (key == null || !key.startsWith(dayPrefix) || key.indexOf('/', dayPrefix.length()) >= 0) {
            return Optional.empty();
        }
        return Optional.of(key.substring(dayPrefix.length()));
    }
}
