package io.gpupipe.model.scaling;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Objects;

/**
 * A warm window (seed 001's mitigation for cold starts): on the days {@code firstDay}–{@code lastDay}, from
 * {@code start} to {@code end} local time in {@code zone}, the tier keeps at least {@code minTasks} tasks. Written
 * as {@code "MON-FRI 08:00-18:00 Europe/Berlin 1"}. The CDK app turns it into two scheduled actions (min capacity
 * up at the start, back to 0 at the end); the scaling metric publishes at least {@code minTasks} inside it, so the
 * scale-in and to-zero alarms never fight the schedule; the simulator replays it.
 */
public record WarmWindow(DayOfWeek firstDay, DayOfWeek lastDay, LocalTime start, LocalTime end, ZoneId zone,
                         int minTasks) {

    public WarmWindow {
        Objects.requireNonNull(firstDay, "firstDay");
        Objects.requireNonNull(lastDay, "lastDay");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(zone, "zone");
        if (!start.isBefore(end)) {
            throw new IllegalArgumentException("warm window must start before it ends on the same day, got "
                    + start + "-" + end);
        }
        if (start.getSecond() != 0 || end.getSecond() != 0) {
            throw new IllegalArgumentException("warm window times are whole minutes, got " + start + "-" + end);
        }
        if (minTasks < 1) {
            throw new IllegalArgumentException("warm window minTasks must be >= 1, got " + minTasks);
        }
    }

    /** Parses {@code "MON-FRI 08:00-18:00 Europe/Berlin 1"} (a single day like {@code SAT} works too). */
    public static WarmWindow parse(String text) {
        String[] parts = Objects.requireNonNull(text, "text").trim().split("\\s+");
        if (parts.length != 4) {
            throw new IllegalArgumentException("warm window must read 'DAYS HH:MM-HH:MM ZONE MIN_TASKS' (e.g. "
                    + "'MON-FRI 08:00-18:00 Europe/Berlin 1'), got '" + text + "'");
        }
        try {
            String[] days = parts[0].split("-", 2);
            String[] times = parts[1].split("-", 2);
            if (times.length != 2) {
                throw new IllegalArgumentException("times must read HH:MM-HH:MM, got '" + parts[1] + "'");
            }
            return new WarmWindow(day(days[0]), day(days.length == 2 ? days[1] : days[0]),
                    LocalTime.parse(times[0]), LocalTime.parse(times[1]), ZoneId.of(parts[2]),
                    Integer.parseInt(parts[3]));
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("warm window '" + text + "': " + e.getMessage(), e);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("warm window '" + text + "': unknown time zone " + parts[2], e);
        }
    }

    private static DayOfWeek day(String abbreviation) {
        for (DayOfWeek day : DayOfWeek.values()) {
            if (cronDay(day).equalsIgnoreCase(abbreviation)) {
                return day;
            }
        }
        throw new IllegalArgumentException("unknown day '" + abbreviation + "' (use MON, TUE, …, SUN)");
    }

    /** True when {@code at} falls inside the window. */
    public boolean isActive(Instant at) {
        ZonedDateTime local = at.atZone(zone);
        LocalTime time = local.toLocalTime();
        return coversDay(local.getDayOfWeek()) && !time.isBefore(start) && time.isBefore(end);
    }

    /** The tasks this window asks for at {@code at}: {@code minTasks} inside, 0 outside. */
    public int minimumAt(Instant at) {
        return isActive(at) ? minTasks : 0;
    }

    private boolean coversDay(DayOfWeek day) {
        int first = firstDay.getValue();
        int last = lastDay.getValue();
        int d = day.getValue();
        return first <= last ? d >= first && d <= last : d >= first || d <= last;
    }

    /** Application Auto Scaling schedule raising the minimum, e.g. {@code cron(0 8 ? * MON-FRI *)}. */
    public String startSchedule() {
        return cron(start);
    }

    /** Application Auto Scaling schedule lowering the minimum back to 0. */
    public String endSchedule() {
        return cron(end);
    }

    private String cron(LocalTime at) {
        String days = firstDay == lastDay ? cronDay(firstDay) : cronDay(firstDay) + "-" + cronDay(lastDay);
        return "cron(" + at.getMinute() + " " + at.getHour() + " ? * " + days + " *)";
    }

    private static String cronDay(DayOfWeek day) {
        return day.getDisplayName(TextStyle.SHORT, Locale.ROOT).toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        String days = firstDay == lastDay ? cronDay(firstDay) : cronDay(firstDay) + "-" + cronDay(lastDay);
        return days + " " + start + "-" + end + " " + zone.getId() + " " + minTasks;
    }
}
