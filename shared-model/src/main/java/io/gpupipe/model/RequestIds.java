package io.gpupipe.model;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The form of a request id: a UUID version 4, compared without regard to letter case and stored in lower case (S3
 * keys are case-sensitive, ids are not). Client ids, stored ids and batch line ids all take it.
 */
public final class RequestIds {
    private static final Pattern UUID_V4 = Pattern.compile(
            "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", Pattern.CASE_INSENSITIVE);

    private RequestIds() {
    }

    /** True when {@code id} is a UUID version 4 in any letter case. */
    public static boolean isValid(String id) {
        return id != null && UUID_V4.matcher(id).matches();
    }

    /** The canonical (lower-case) form of a valid request id. */
    public static String normalize(String id) {
        return id.toLowerCase(Locale.ROOT);
    }
}
