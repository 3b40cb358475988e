package io.posekit.fuzz;

import io.posekit.fuzz.FuzzCampaign.Failure;
import io.posekit.fuzz.FuzzCampaign.Result;
import io.posekit.fuzz.FuzzCampaign.Tally;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * A campaign's outcome as Markdown: the settings, a table of upload outcomes by format and HTTP status with the
 * request times, the follow-up requests on accepted mutants, the longest server-side parse, the heap, and the
 * failures (the first of them in full).
 */
final class FuzzReport {

    private static final int LISTED_FAILURES = 30;

    private FuzzReport() {
    }

    static String markdown(Result r) {
        StringBuilder s = new StringBuilder("# posekit upload fuzzing\n\n");
        FuzzCampaign.Settings settings = r.settings();
        s.append(String.format(Locale.ROOT, "Seed %d, mutants %d to %d of each of %d formats (%d in all), %d client threads, "
                        + "request budget %d ms; wall time %.1f s.%n%n", settings.seed(), settings.first(),
                settings.first() + settings.count() - 1, r.tallies().size(), r.mutants(), settings.threads(),
                settings.budget().toMillis(), r.wallNanos() / 1e9));

        TreeSet<Integer> statuses = new TreeSet<>();
        r.tallies().forEach(t -> statuses.addAll(t.uploads.keySet()));
        s.append("## Uploads by format and status\n\n| format | mutants |");
        statuses.forEach(st -> s.append(' ').append(label(st)).append(" |"));
        s.append(" safety net | overflow | failures | p99 ms | max ms | wall s |\n|---|---:|");
        statuses.forEach(st -> s.append("---:|"));
        s.append("---:|---:|---:|---:|---:|---:|\n");
        for (Tally t : r.tallies()) {
            s.append("| ").append(t.format).append(" | ").append(t.mutants()).append(" |");
            statuses.forEach(st -> s.append(' ').append(t.count(st)).append(" |"));
            s.append(String.format(Locale.ROOT, " %d | %d | %d | %.1f | %.1f | %.1f |%n", t.safetyNet.sum(),
                    t.overflows.sum(), t.failures.size(),
                    FuzzCampaign.millis(t.percentileNanos(99)), FuzzCampaign.millis(t.maxNanos()), t.wallNanos / 1e9));
        }
        s.append("| **all** | ").append(r.mutants()).append(" |");
        statuses.forEach(st -> s.append(' ').append(r.tallies().stream().mapToLong(t -> t.count(st)).sum()).append(" |"));
        s.append(String.format(Locale.ROOT, " %d | %d | %d | %.1f | %.1f | %.1f |%n%n",
                r.tallies().stream().mapToLong(t -> t.safetyNet.sum()).sum(),
                r.tallies().stream().mapToLong(t -> t.overflows.sum()).sum(), r.failures().size(),
                FuzzCampaign.millis(r.percentileNanos(99)), FuzzCampaign.millis(r.maxNanos()), r.wallNanos() / 1e9));

        s.append("Safety net: 422s from the importers' safety net (an importer bug). Overflow: accepted mutants whose"
                + " samples held an infinite number (finite file values whose products exceed the float range).\n\n");
        s.append("## Requests on accepted mutants (summary, poses, skinning matrices, skinned mesh, delete)\n\n");
        for (Tally t : r.tallies()) {
            s.append("- ").append(t.format).append(": ").append(counts(t.followUps)).append('\n');
        }
        s.append("\nServer-side parses by outcome (posekit.import.duration, seeds included): ").append(r.parseOutcomes())
                .append('\n');
        s.append(String.format(Locale.ROOT, "%n## Time and memory%n%n- longest server-side parse (posekit.import.duration): "
                        + "%.1f ms%n- upload request time: p99 %.1f ms, max %.1f ms%n- heap retained after a full collection, "
                        + "largest sample: %d MiB%n- peak heap in use, garbage included: %d MiB of %d MiB (-Xmx)%n%n",
                FuzzCampaign.millis(r.maxParseNanos()), FuzzCampaign.millis(r.percentileNanos(99)),
                FuzzCampaign.millis(r.maxNanos()), r.maxRetainedHeap() >> 20, r.peakHeap() >> 20, r.maxHeap() >> 20));

        List<Failure> failures = r.failures();
        s.append("## Failures: ").append(failures.size()).append("\n\n");
        failures.stream().limit(LISTED_FAILURES).forEach(f -> s.append("- ").append(f).append('\n'));
        if (failures.size() > LISTED_FAILURES) {
            s.append("- … and ").append(failures.size() - LISTED_FAILURES).append(" more\n");
        }
        return s.toString();
    }

    private static String label(int status) {
        return status < 0 ? "no response" : Integer.toString(status);
    }

    private static String counts(NavigableMap<Integer, LongAdder> counts) {
        if (counts.isEmpty()) {
            return "none";
        }
        StringBuilder s = new StringBuilder();
        for (Map.Entry<Integer, LongAdder> e : counts.entrySet()) {
            s.append(s.isEmpty() ? "" : ", ").append(label(e.getKey())).append(" × ").append(e.getValue().sum());
        }
        return s.toString();
    }
}
