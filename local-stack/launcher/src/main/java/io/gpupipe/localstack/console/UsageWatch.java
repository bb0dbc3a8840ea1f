package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.usage.CostEstimate;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRange;
import io.gpupipe.model.usage.UsageRecord;
import io.gpupipe.model.usage.UsageReport;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every caller's usage of the month so far (UTC), as the operator of the local stack sees it: the records the notifier
 * wrote under {@code usage/records/}, summed per caller by the same rules as {@code GET /v1/usage} (which answers
 * each caller its own usage only). The local callers are named (anonymous, caller-a, caller-b); others show their
 * owner hash.
 */
final class UsageWatch {
    private static final int HASH_SHOWN = 12;

    private final Function<String, List<String>> list;
    private final CostEstimate costs;
    private final Map<String, String> names = new HashMap<>();
    private final Clock clock;

    /** {@code list}: the keys under a prefix of the results bucket; {@code ownerIds}: how the router derives owners. */
    UsageWatch(Function<String, List<String>> list, TierCatalogue tiers, Clock clock, OwnerIds ownerIds) {
        this.list = list;
        this.costs = CostEstimate.of(tiers);
        this.clock = clock;
        names.put(ownerIds.of(CallerIdentity.ANONYMOUS).hex(), "anonymous");
        for (String subject : List.of(LocalCallers.CALLER_A, LocalCallers.CALLER_B)) {
            names.put(ownerIds.of(new CallerIdentity.Jwt(LocalCallers.ISSUER, subject)).hex(), subject);
        }
    }

    ObjectNode usage() {
        return usage(Optional.empty());
    }

    /** As {@link #usage()}, of {@code scope}'s records only when given. */
    ObjectNode usage(Optional<Owner> scope) {
        UsageRange month = UsageRange.monthToDate(clock.instant());
        Map<String, Map<LocalDate, List<UsageRecord>>> byOwner = new TreeMap<>();
        for (String key : list.apply(UsageLayout.RECORDS_PREFIX)) {
            String[] parts = key.substring(UsageLayout.RECORDS_PREFIX.length()).split("/", -1);
            Optional<LocalDate> day = parts.length == 3 ? day(parts[1]) : Optional.empty();
            boolean outOfScope = scope.isPresent() && !(scope.get().isCaller() && scope.get().hex().equals(parts[0]));
            if (outOfScope || day.isEmpty() || day.get().isBefore(month.firstDay())
                    || day.get().isAfter(month.lastDay())) {
                continue;
            }
            UsageRecord.parse(day.get(), parts[2]).ifPresent(record -> byOwner.computeIfAbsent(parts[0],
                    o -> new LinkedHashMap<>()).computeIfAbsent(day.get(), d -> new ArrayList<>()).add(record));
        }
        ObjectNode answer = JobJson.mapper().createObjectNode().put("start", month.start().toString())
                .put("end", month.end().toString()).put("costBasis", CostEstimate.BASIS);
        ArrayNode callers = answer.putArray("callers");
        byOwner.forEach((owner, days) -> {
            Map<LocalDate, DaySummary> summaries = new HashMap<>();
            days.forEach((day, records) -> summaries.put(day, DaySummary.of(day, records)));
            UsageReport report = UsageReport.of(month, Optional.empty(), summaries, costs);
            ObjectNode row = callers.addObject().put("owner", owner).put("caller", names.getOrDefault(owner,
                    owner.substring(0, HASH_SHOWN) + "…"));
            row.set("total", JobJson.mapper().valueToTree(report.total()));
        });
        return answer;
    }

    private static Optional<LocalDate> day(String text) {
        try {
            return Optional.of(LocalDate.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
