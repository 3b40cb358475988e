package io.posekit.fuzz;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.posekit.fuzz.FuzzClient.Response;
import io.posekit.fuzz.Mutants.Mutant;
import io.posekit.fuzz.Seeds.Seed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Drives mutants through the real upload path and judges every answer. Per format, mutants {@code first} to
 * {@code first + count − 1} are made ({@link Mutants#make}) and sent in batches from a few client threads; each
 * must end in a 2xx, or a 4xx {@code application/problem+json} whose {@code status} is the HTTP status and whose
 * {@code detail} is not blank (and is not the importers' safety net, "internal error while reading …", which
 * marks an importer bug), within the time budget. An accepted mutant is then exercised: its summary, a pose of
 * its first clip (or the rest pose), its first skin's matrices and first mesh skinned, then deleted, each of
 * which must be 2xx (strict JSON without NaN; infinities are counted) or a 4xx problem as well. After each batch the retained heap (after a full collection) and the
 * longest server-side parse ({@code posekit.import.duration}) are sampled. Failures are kept with everything
 * needed to make the mutant again, and their bytes written under {@code failureDir}.
 */
final class FuzzCampaign {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Failing mutants written to disk per format; the rest are only counted and listed. */
    private static final int WRITTEN_PER_FORMAT = 50;

    /**
     * @param seed the campaign seed
     * @param first the first mutant index
     * @param count mutants per format
     * @param budget the longest any request may take
     * @param threads client threads
     * @param batch mutants between heap and meter samples
     * @param failureDir where failing mutants are written
     */
    record Settings(long seed, int first, int count, Duration budget, int threads, int batch, Path failureDir) {
    }

    /** A mutant whose answer broke a rule: what, and how to make it again. */
    record Failure(String format, int index, String seed, boolean raw, String mutation, String problem) {

        @Override
        public String toString() {
            return format + " #" + index + " (seed " + seed + (raw ? ", raw body" : "") + "): " + problem + "\n    mutation: "
                    + mutation;
        }
    }

    /** What happened to one format's mutants. */
    static final class Tally {
        final String format;
        final NavigableMap<Integer, LongAdder> uploads = new ConcurrentSkipListMap<>();
        final NavigableMap<Integer, LongAdder> followUps = new ConcurrentSkipListMap<>();
        final LongAdder safetyNet = new LongAdder();
        /** Sampling answers of accepted mutants with an infinite number (see {@link FuzzCampaign#finiteJson}). */
        final LongAdder overflows = new LongAdder();
        final long[] uploadNanos;
        final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
        final AtomicInteger written = new AtomicInteger();
        long wallNanos;

        Tally(String format, int count) {
            this.format = format;
            this.uploadNanos = new long[count];
        }

        long mutants() {
            return uploads.values().stream().mapToLong(LongAdder::sum).sum();
        }

        long count(int status) {
            LongAdder a = uploads.get(status);
            return a == null ? 0 : a.sum();
        }

        long maxNanos() {
            return Arrays.stream(uploadNanos).max().orElse(0);
        }

        long percentileNanos(double p) {
            return percentile(uploadNanos, p);
        }
    }

    /** The whole campaign's outcome. */
    record Result(Settings settings, List<Tally> tallies, Map<String, Long> parseOutcomes, long maxParseNanos,
            long maxRetainedHeap, long peakHeap, long maxHeap, long wallNanos) {

        long mutants() {
            return tallies.stream().mapToLong(Tally::mutants).sum();
        }

        List<Failure> failures() {
            return tallies.stream().flatMap(t -> t.failures.stream()).toList();
        }

        long percentileNanos(double p) {
            return percentile(tallies.stream().flatMapToLong(t -> Arrays.stream(t.uploadNanos)).toArray(), p);
        }

        long maxNanos() {
            return tallies.stream().mapToLong(Tally::maxNanos).max().orElse(0);
        }
    }

    private final FuzzClient client;
    private final Settings settings;
    private final MeterRegistry meters;
    private final HeapWatch heap = new HeapWatch();
    private long maxParseNanos;

    FuzzCampaign(FuzzClient client, Settings settings, MeterRegistry meters) {
        this.client = client;
        this.settings = settings;
        this.meters = meters;
    }

    /** Runs every format of {@code seeds} in turn. */
    Result run(Map<String, List<Seed>> seeds) throws InterruptedException {
        long start = System.nanoTime();
        heap.reset();
        List<Tally> tallies = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), Thread.ofPlatform().name("fuzz-", 1).factory());
        try {
            for (Map.Entry<String, List<Seed>> format : seeds.entrySet()) {
                tallies.add(runFormat(pool, format.getKey(), format.getValue()));
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        return new Result(settings, tallies, parseOutcomes(), maxParseNanos, heap.maxRetained(), heap.peak(), heap.max(),
                System.nanoTime() - start);
    }

    private Tally runFormat(ExecutorService pool, String format, List<Seed> seeds) throws InterruptedException {
        Tally tally = new Tally(format, settings.count());
        long start = System.nanoTime();
        for (int from = 0; from < settings.count(); from += settings.batch()) {
            int to = Math.min(settings.count(), from + settings.batch());
            AtomicInteger next = new AtomicInteger(from);
            List<Callable<Void>> workers = new ArrayList<>();
            for (int t = 0; t < settings.threads(); t++) {
                workers.add(() -> {
                    for (int i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
                        Mutant m;
                        try {
                            m = Mutants.make(settings.seed(), format, seeds, settings.first() + i);
                        } catch (RuntimeException | OutOfMemoryError e) {
                            throw new IllegalStateException("making mutant " + format + " #" + (settings.first() + i)
                                    + " failed", e);
                        }
                        runOne(m, i, tally);
                    }
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(workers)) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("the fuzzer itself failed on " + format, e.getCause());
                }
            }
            heap.sample();
            pollParseTime();
        }
        tally.wallNanos = System.nanoTime() - start;
        return tally;
    }

    private void runOne(Mutant m, int slot, Tally tally) {
        Response up = client.upload(m.parts(), m.raw());
        tally.uploadNanos[slot] = up.nanos();
        tally.uploads.computeIfAbsent(up.status(), s -> new LongAdder()).increment();
        String problem = judge(up, "upload", tally);
        if (problem == null && up.status() / 100 == 2) {
            problem = exercise(up, tally);
        }
        if (problem != null) {
            fail(tally, m, problem);
        }
    }

    /** Null when {@code r} follows the rules, else what is wrong with it. */
    private String judge(Response r, String request, Tally tally) {
        if (r.error() != null) {
            return request + ": no response after " + millis(r.nanos()) + " ms: " + r.error();
        }
        if (r.nanos() > settings.budget().toNanos()) {
            return request + ": took " + millis(r.nanos()) + " ms, over the budget of " + settings.budget().toMillis() + " ms";
        }
        int status = r.status();
        if (status / 100 == 2) {
            return null;
        }
        if (status / 100 != 4) {
            return request + ": " + r;
        }
        if (!r.contentType().startsWith("application/problem+json")) {
            return request + ": a " + status + " that is not application/problem+json: " + r;
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (JacksonException e) {
            return request + ": a " + status + " whose body is not JSON: " + r;
        }
        if (body.path("status").asInt(-1) != status) {
            return request + ": a " + status + " problem whose status field differs: " + r;
        }
        String detail = body.path("detail").asString("");
        if (detail.isBlank()) {
            return request + ": a " + status + " problem without a detail: " + r;
        }
        if (detail.startsWith("internal error while reading")) {
            tally.safetyNet.increment();
            return request + ": the importers' safety net caught an importer bug: " + r;
        }
        return null;
    }

    /** The accepted asset's summary, a pose, skinning matrices and a skinned mesh, then its deletion. */
    private String exercise(Response upload, Tally tally) {
        JsonNode summary;
        try {
            summary = JSON.readTree(upload.body());
        } catch (JacksonException e) {
            return "upload: a " + upload.status() + " whose body is not JSON: " + upload;
        }
        String id = summary.path("id").asString("");
        if (id.isEmpty()) {
            return "upload: a " + upload.status() + " without an id: " + upload;
        }
        String asset = "/api/v1/assets/" + id;
        String sampling = "";
        JsonNode clips = summary.path("clips");
        if (clips.size() > 0) {
            double duration = clips.get(0).path("duration").asDouble(0);
            double time = Double.isFinite(duration) && Math.abs(duration) < 1e6 ? duration / 2 : 0.5;
            sampling = "clip=0&time=" + BigDecimal.valueOf(time).toPlainString() + "&loop=repeat";
        }
        List<String> requests = new ArrayList<>();
        requests.add(asset);
        requests.add(asset + "/pose" + (sampling.isEmpty() ? "" : "?" + sampling));
        requests.add(asset + "/pose?space=model" + (sampling.isEmpty() ? "" : "&" + sampling));
        if (summary.path("skins").size() > 0) {
            requests.add(asset + "/skins/0/matrices" + (sampling.isEmpty() ? "" : "?" + sampling));
        }
        if (summary.path("meshes").size() > 0) {
            requests.add(asset + "/meshes/0/skinned" + (sampling.isEmpty() ? "" : "?" + sampling));
        }
        String problem = null;
        boolean[] overflowed = {false};
        for (String request : requests) {
            Response r = client.get(request);
            tally.followUps.computeIfAbsent(r.status(), s -> new LongAdder()).increment();
            problem = judge(r, "GET " + request, tally);
            if (problem == null && r.status() / 100 == 2) {
                problem = finiteJson(r, "GET " + request, overflowed);
            }
            if (problem != null) {
                break;
            }
        }
        if (overflowed[0]) {
            tally.overflows.increment();
        }
        // deleted whatever happened, so that a failing asset does not linger in the store
        Response deleted = client.delete(asset);
        tally.followUps.computeIfAbsent(deleted.status(), s -> new LongAdder()).increment();
        String deleteProblem = judge(deleted, "DELETE " + asset, tally);
        return problem != null ? problem : deleteProblem;
    }

    /**
     * Null when the answer is strict JSON holding only finite numbers, else what is wrong: an accepted asset must
     * not sample to NaN (Jackson writes it as the string "NaN"). Infinity is counted apart ({@link Tally#overflows}),
     * not failed: a file's numbers can all be finite floats whose products exceed the float range (a translation of
     * 1e30 times an inverse bind of 1e20), and the API has no answer for that yet but the strings "Infinity" and
     * "-Infinity". NaN beside them, or in a later sample of the same asset ({@code overflowed}), is their
     * consequence (∞ − ∞, 0 × ∞).
     */
    private static String finiteJson(Response r, String request, boolean[] overflowed) {
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (JacksonException e) {
            return request + ": a " + r.status() + " whose body is not strict JSON (" + e.getOriginalMessage() + "): " + r;
        }
        List<String> where = new ArrayList<>();
        boolean[] infinite = {false};
        nonFinite(body, "", where, infinite);
        overflowed[0] |= infinite[0];
        if (where.isEmpty() || overflowed[0]) {
            return null;
        }
        return request + ": NaN at " + where.stream().limit(5).toList() + ": " + r;
    }

    private static void nonFinite(JsonNode node, String path, List<String> where, boolean[] infinite) {
        if (node.isNumber() && !Double.isFinite(node.doubleValue())
                || node.isString() && List.of("NaN", "Infinity", "-Infinity").contains(node.asString())) {
            where.add(path.isEmpty() ? "/" : path);
            infinite[0] |= node.isNumber() ? Double.isInfinite(node.doubleValue()) : node.asString().endsWith("Infinity");
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                nonFinite(node.get(i), path + "/" + i, where, infinite);
            }
        } else if (node.isObject()) {
            for (String key : node.propertyNames()) {
                nonFinite(node.get(key), path + "/" + key, where, infinite);
            }
        }
    }

    private void fail(Tally tally, Mutant m, String problem) {
        tally.failures.add(new Failure(m.format(), m.index(), m.seed(), m.raw(), m.description(), problem));
        if (tally.written.incrementAndGet() > WRITTEN_PER_FORMAT) {
            return;
        }
        Path dir = settings.failureDir().resolve(m.format() + "-" + m.index());
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, byte[]> part : m.parts().entrySet()) {
                Files.write(dir.resolve(part.getKey().replaceAll("[/\\\\]", "_")), part.getValue());
            }
            Files.writeString(dir.resolve("mutant.txt"), "format " + m.format() + "\nindex " + m.index()
                    + "\ncampaign seed " + settings.seed() + "\nseed " + m.seed() + "\nraw body " + m.raw()
                    + "\nmutation " + m.description() + "\nproblem " + problem + "\n"
                    + "replay: -Dposekit.fuzz.formats=" + m.format() + " -Dposekit.fuzz.first=" + m.index()
                    + " -Dposekit.fuzz.mutants=1 -Dposekit.fuzz.seed=" + settings.seed() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's parses by outcome tag (success, invalid, …, bug, error), from its import timer. */
    private Map<String, Long> parseOutcomes() {
        Map<String, Long> outcomes = new TreeMap<>();
        for (Timer t : meters.find("posekit.import.duration").timers()) {
            outcomes.merge(t.getId().getTag("outcome"), t.count(), Long::sum);
        }
        return outcomes;
    }

    /** The longest parse the import timer has seen; its max decays after minutes, so this is polled per batch. */
    private void pollParseTime() {
        for (Timer t : meters.find("posekit.import.duration").timers()) {
            maxParseNanos = Math.max(maxParseNanos, (long) t.max(TimeUnit.NANOSECONDS));
        }
    }

    static double millis(long nanos) {
        return Math.round(nanos / 1e4) / 100.0;
    }

    static long percentile(long[] values, double p) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
