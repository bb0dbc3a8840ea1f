package io.gpupipe.repair.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA XID error codes as ECS reports them in health-check reasons ({@code "XID_79"}). {@link #SEED_CRITICAL} is
 * seed 001's auto-repair table; descriptions also cover the other codes ECS Managed Instances monitors.
 */
public final class GpuXids {
    /** Seed 001: XIDs that make ECS replace the instance and that page the operator. */
    public static final Set<Integer> SEED_CRITICAL = Set.of(48, 74, 79, 95, 140);

    private static final Pattern XID = Pattern.compile("(?i)\\bxid[\\s_:#-]*(\\d{1,4})\\b");
    private static final Map<Integer, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry(46, "GPU stopped processing"),
            Map.entry(48, "Double Bit ECC Error"),
            Map.entry(54, "Auxiliary power connector not connected"),
            Map.entry(62, "Internal micro-controller halt"),
            Map.entry(64, "GPU memory remapping failure"),
            Map.entry(74, "NVLink Error"),
            Map.entry(79, "GPU has fallen off the bus"),
            Map.entry(95, "Uncontained memory error"),
            Map.entry(109, "Context switch timeout"),
            Map.entry(110, "GPU disappeared from the bus"),
            Map.entry(136, "GPU memory page retirement limit exceeded"),
            Map.entry(140, "Unrecoverable ECC Error"),
            Map.entry(142, "GPU memory page retired due to uncorrectable error"),
            Map.entry(143, "GPU memory page retired due to correctable error threshold"));

    private GpuXids() {
    }

    /** Every distinct XID named in {@code text}, in order of appearance ({@code "XID_79"}, {@code "Xid 48"}). */
    public static List<Integer> parse(String text) {
        List<Integer> xids = new ArrayList<>();
        if (text == null) {
            return xids;
        }
        Matcher matcher = XID.matcher(text);
        while (matcher.find()) {
            int xid = Integer.parseInt(matcher.group(1));
            if (!xids.contains(xid)) {
                xids.add(xid);
            }
        }
        return xids;
    }

    /** A readable name for {@code xid}, e.g. "XID 79 (GPU has fallen off the bus)". */
    public static String describe(int xid) {
        String description = DESCRIPTIONS.get(xid);
        return description == null ? "XID " + xid : "XID " + xid + " (" + description + ")";
    }
}
