package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.fbx.FbxImporter;
import io.posekit.asset.fbx.FbxSceneTimes;
import io.posekit.clip.Clip;
import io.posekit.export.GlbWriter;
import io.posekit.export.PosedMeshes;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.sampling.TimeBase;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.PosedPrimitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ufbx's ground truth (<a href="https://github.com/ufbx/ufbx">ufbx</a>'s test corpus in
 * {@code ../shared/realworld/ufbx}, skipped when absent): every FBX file of the folder imports to a model or is
 * refused with an {@link ImportException}, never another exception, never a hang; and every (FBX, OBJ, stack, time)
 * pair of ufbx's test sources ({@link UfbxCorpus}) is imported the way an upload is ({@link AssetImporters}), posed
 * the way {@code posed.glb} poses it (the clip sampled by {@link Pose}, morph weights by {@link MorphWeights}, skinned
 * and placed by {@link PosedMeshes}) and compared with the authoring tool's OBJ export of that frame.
 *
 * <p>The comparison is ufbx's ({@code ufbxt_diff_to_obj}), order-free: each OBJ mesh's positions must each lie within
 * the OBJ's tolerance (0.001 per coordinate unless the OBJ says {@code ufbx:tolerance}; after
 * {@code ufbx:position_scale}) of a posed vertex of the posekit mesh instance its {@code o}/{@code g} names name
 * (Blender's {@code Object_Mesh} by its object part), or of any posed vertex when none is named so. Times: ufbx and the
 * OBJ frames count scene time, posekit's clip time counts from the stack's start, so the pair's time is sampled as
 * {@code timeBase=scene} samples it ({@link TimeBase#SCENE}: minus the clip's {@code sceneStart}, the stack's
 * {@code LocalStart}), held within the clip ({@link LoopMode#CLAMP}, ufbx's default constant extrapolation). A
 * rest pair is the model at rest.
 *
 * <p>The pairs outside tolerance are exactly those listed with their reason in
 * {@code src/test/resources/ufbx/known-failures.txt}: a pair that starts failing, or one listed that now passes,
 * fails the test, so the list stays the truth. ufbx's own expected failures ({@code DIFF_EXPECT_FAIL}) are reported
 * apart. The per-exporter, per-version results go to {@code target/ufbx-conformance.md} (and docs/correctness.md).
 */
class UfbxConformanceTest {

    private static final AssetImporters IMPORTERS = AssetImporters.all(ImportLimits.DEFAULT);
    /** For OBJs that say {@code ufbx:no_subdivision}: meshes displayed smooth kept as their cage. */
    private static final AssetImporters CAGE_IMPORTERS = new AssetImporters(List.of(new FbxImporter(false)),
            ImportLimits.DEFAULT);
    private static final long FILE_SECONDS = 30;
    private static final Path KNOWN = Path.of("src/test/resources/ufbx/known-failures.txt");
    private static final Path REPORT = Path.of("target/ufbx-conformance.md");

    private static ExecutorService executor;

    /** One file's import: the model, or why it was refused. */
    private record Imported(Model model, ImportException refused, FbxSceneTimes.Stacks stacks) {
    }

    /** One pair's outcome. */
    private record Result(UfbxCorpus.Pair pair, boolean within, String failureClass, String detail) {
    }

    @BeforeAll
    static void start() {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ufbx-import");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    /** Imports {@code fbx} as an upload, on a thread of its own, within {@value #FILE_SECONDS} s. */
    private static Imported importFile(Path fbx) {
        return importFile(fbx, IMPORTERS);
    }

    /** Imports {@code fbx} with {@code importers}. */
    private static Imported importFile(Path fbx, AssetImporters importers) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(fbx);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Future<Imported> f = executor.submit(() -> {
            try {
                Model model = importers.importUpload(List.of(new SourceFile(fbx.getFileName().toString(), bytes)))
                        .model();
                return new Imported(model, null, FbxSceneTimes.of(bytes));
            } catch (ImportException e) {
                return new Imported(null, e, null);
            }
        });
        try {
            return f.get(FILE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError(fbx + ": the import took more than " + FILE_SECONDS + " s");
        } catch (ExecutionException e) {
            throw new AssertionError(fbx + ": the import failed with " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void everyFbxFileOfTheCorpusImportsOrIsRefusedWithAReason() {
        assumeTrue(UfbxCorpus.available(), "../shared/realworld/ufbx is absent");
        long t0 = System.nanoTime();
        List<Path> files = UfbxCorpus.allFbx();
        Map<String, Integer> outcomes = new TreeMap<>();
        List<String> broken = new ArrayList<>();
        for (Path f : files) {
            try {
                Imported i = importFile(f);
                String outcome = i.model() != null ? "model" : i.refused().kind() + (i.refused().importerBug()
                        ? " (importer bug: " + i.refused().getMessage() + ")" : "");
                outcomes.merge(outcome.startsWith("INVALID (importer bug") ? "INVALID (importer bug)" : outcome, 1,
                        Integer::sum);
                if (i.refused() != null && i.refused().importerBug()) {
                    broken.add(UfbxCorpus.root().relativize(f) + ": " + i.refused().getMessage());
                }
            } catch (AssertionError e) {
                broken.add(UfbxCorpus.root().relativize(f) + ": " + e.getMessage());
            }
        }
        System.out.printf(Locale.ROOT, "ufbx corpus: %d FBX files in %.1f s: %s%n", files.size(),
                (System.nanoTime() - t0) / 1e9, outcomes);
        assertThat(files).hasSize(736);
        // an importer bug is still a 422, but it is a bug: every refusal must be one the importer means
        assertThat(broken).as("files whose import threw, hung or hit an importer bug").isEmpty();
    }

    @Test
    void pairsMatchTheAuthoringToolsObjWithinUfbxsTolerance() throws IOException {
        assumeTrue(UfbxCorpus.available(), "../shared/realworld/ufbx is absent");
        long t0 = System.nanoTime();
        UfbxCorpus.Pairs pairs = UfbxCorpus.pairs();
        Map<Path, Imported> models = new HashMap<>();
        Map<Path, Imported> cages = new HashMap<>();
        Map<Path, ObjMeshes> objs = new HashMap<>();
        List<Result> results = new ArrayList<>();
        for (UfbxCorpus.Pair p : pairs.pairs()) {
            ObjMeshes obj = objs.computeIfAbsent(p.obj(), ObjMeshes::read);
            // ufbx compares a cage OBJ (ufbx:no_subdivision) with the mesh unsubdivided
            Imported i = obj.noSubdivision() ? cages.computeIfAbsent(p.fbx(), f -> importFile(f, CAGE_IMPORTERS))
                    : models.computeIfAbsent(p.fbx(), UfbxConformanceTest::importFile);
            results.add(compare(p, i, obj));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String report = report(results, pairs, seconds);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        System.out.println(report);

        Map<String, String> known = new LinkedHashMap<>();
        for (String line : Files.readAllLines(KNOWN)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split("\t");
                known.put(parts[0], parts.length > 1 ? parts[1] : "");
            }
        }
        Map<String, String> failing = new LinkedHashMap<>();
        for (Result r : results) {
            if (!r.within() && r.pair().expectedFailure() == null) {
                failing.put(r.pair().id(), r.failureClass() + "\t" + r.detail());
            }
        }
        List<String> newFailures = failing.keySet().stream().filter(id -> !known.containsKey(id))
                .map(id -> id + "\t" + failing.get(id)).toList();
        List<String> nowPassing = known.keySet().stream().filter(id -> !failing.containsKey(id)).toList();
        assertThat(newFailures).as("pairs outside tolerance that known-failures.txt does not list").isEmpty();
        assertThat(nowPassing).as("pairs known-failures.txt lists that are now within tolerance (or gone)").isEmpty();
        assertThat(results).as("pairs").hasSize(EXPECTED_PAIRS);
    }

    /** The pairs ufbx's test sources give over the half of the corpus in ../shared. */
    private static final int EXPECTED_PAIRS = 124;

    private static Result compare(UfbxCorpus.Pair p, Imported i, ObjMeshes obj) {
        if (i.model() == null) {
            return new Result(p, false, refusalClass(i.refused()), i.refused().getMessage());
        }
        Model model = i.model();
        Clip clip = null;
        double local = 0;
        if (!p.rest() && !model.clips().isEmpty()) {
            clip = pickClip(model, p.anim(), i.stacks());
            if (clip == null) {
                return new Result(p, false, "no stack named like the pair's", "anim " + p.anim());
            }
            local = LoopMode.CLAMP.localTime(TimeBase.SCENE.clipTime(p.sceneTime(), clip), clip.duration());
        }
        float[] matrices = Pose.evaluate(model.rig(), clip, local).modelMatrices();
        MorphWeights weights = clip == null ? null : MorphWeights.evaluate(model.meshes(), clip, local);
        int[] all = new int[model.meshes().size()];
        for (int k = 0; k < all.length; k++) {
            all[k] = k;
        }
        List<GlbWriter.PosedMesh> posed;
        try {
            posed = PosedMeshes.of(model, matrices, weights, all);
        } catch (RuntimeException e) {
            return new Result(p, false, "posing failed", e.toString());
        }
        double scale = obj.positionScale();
        double tol = obj.tolerance() / Math.abs(scale);
        Map<String, List<Integer>> byName = new HashMap<>();
        for (int k = 0; k < posed.size(); k++) {
            byName.computeIfAbsent(model.meshes().get(k).name(), n -> new ArrayList<>()).add(k);
        }
        PointGrid everything = new PointGrid(tol);
        for (GlbWriter.PosedMesh m : posed) {
            everything.addAll(m, p.scale());
        }
        int total = 0;
        int outside = 0;
        double maxError = 0;
        for (ObjMeshes.Mesh om : obj.meshes()) {
            List<Integer> matched = match(om, byName, obj.blender());
            PointGrid grid;
            if (matched.isEmpty()) {
                grid = everything;
            } else {
                grid = new PointGrid(tol);
                for (int k : matched) {
                    grid.addAll(posed.get(k), p.scale());
                }
            }
            double[] v = om.positions();
            for (int k = 0; k < v.length; k += 3) {
                total++;
                if (!grid.hasWithin(v[k], v[k + 1], v[k + 2])) {
                    outside++;
                    if (outside <= 32) {
                        maxError = Math.max(maxError, grid.nearest(v[k], v[k + 1], v[k + 2]));
                    }
                }
            }
        }
        if (outside == 0) {
            return new Result(p, true, null, null);
        }
        return new Result(p, false, "out of tolerance", String.format(Locale.ROOT,
                "%d of %d OBJ positions farther than %.3g from a posed vertex (max %.3g%s)", outside, total, tol,
                maxError * Math.abs(scale), outside > 32 ? " among the first 32" : ""));
    }

    /**
     * The posekit mesh instances an OBJ mesh names. Maya's {@code g} line lists the node's path, parent first
     * ({@code g pCube1 pCube2}): the deepest name that is a mesh wins.
     */
    private static List<Integer> match(ObjMeshes.Mesh om, Map<String, List<Integer>> byName, boolean blender) {
        for (String n : om.names().reversed()) {
            List<Integer> k = byName.get(n);
            if (k != null) {
                return k;
            }
        }
        if (blender) {
            for (String n : om.names()) {
                int cut = n.indexOf('_');
                List<Integer> k = cut > 0 ? byName.get(n.substring(0, cut)) : null;
                if (k != null) {
                    return k;
                }
            }
        }
        return List.of();
    }

    /** The clip of the stack whose name contains {@code anim}, else the active stack's, else the first. */
    private static Clip pickClip(Model model, String anim, FbxSceneTimes.Stacks stacks) {
        if (anim != null) {
            for (Clip c : model.clips()) {
                if (c.name().contains(anim)) {
                    return c;
                }
            }
            return null;
        }
        if (stacks.active() != null) {
            for (Clip c : model.clips()) {
                if (c.name().equals(stacks.active())) {
                    return c;
                }
            }
        }
        return model.clips().getFirst();
    }

    private static String refusalClass(ImportException e) {
        String m = e.getMessage();
        if (m.contains("predates FBX 7.0")) {
            return "FBX before 7.0 refused";
        }
        return "import refused (" + e.kind() + ")";
    }

    private static String report(List<Result> results, UfbxCorpus.Pairs pairs, double seconds) {
        // exporter → version → [pairs, within, expected failures]
        Map<String, Map<Integer, int[]>> table = new TreeMap<>();
        Map<String, Integer> classes = new TreeMap<>();
        for (Result r : results) {
            int[] row = table.computeIfAbsent(UfbxCorpus.exporter(r.pair().fbx()), k -> new TreeMap<>())
                    .computeIfAbsent(UfbxCorpus.version(r.pair().fbx()), k -> new int[3]);
            row[0]++;
            if (r.within()) {
                row[1]++;
            } else if (r.pair().expectedFailure() != null) {
                row[2]++;
            } else {
                classes.merge(r.failureClass(), 1, Integer::sum);
            }
        }
        StringBuilder s = new StringBuilder();
        long within = results.stream().filter(Result::within).count();
        long expected = results.stream().filter(r -> !r.within() && r.pair().expectedFailure() != null).count();
        s.append(String.format(Locale.ROOT, "ufbx pairs: %d, within tolerance %d, ufbx's expected failures %d,"
                + " failing %d (%.1f s); %d option tests and %d scaled frame checks not compared%n%n",
                results.size(), within, expected, results.size() - within - expected, seconds, pairs.optionTests(),
                pairs.scaledFrameChecks()));
        s.append("| exporter | FBX version | pairs | within tolerance | ufbx's expected failures | failing |\n");
        s.append("|---|---:|---:|---:|---:|---:|\n");
        table.forEach((exporter, versions) -> versions.forEach((version, row) -> s.append(String.format(Locale.ROOT,
                "| %s | %d | %d | %d | %d | %d |%n", exporter, version, row[0], row[1], row[2],
                row[0] - row[1] - row[2]))));
        s.append("\nFailure classes:\n\n");
        classes.forEach((c, n) -> s.append("- ").append(c).append(": ").append(n).append('\n'));
        s.append("\nFailing pairs:\n\n");
        for (Result r : results) {
            if (!r.within()) {
                s.append(r.pair().id()).append('\t').append(r.pair().expectedFailure() != null
                        ? "expected by ufbx: " + r.pair().expectedFailure() : r.failureClass()).append('\t')
                        .append(r.detail()).append('\n');
            }
        }
        return s.toString();
    }

    /** Points hashed into cubes of the tolerance, for "is any within the tolerance (per coordinate)" questions. */
    private static final class PointGrid {
        private final double cell;
        private final Map<Long, List<double[]>> cells = new HashMap<>();
        private final List<double[]> all = new ArrayList<>();

        PointGrid(double cell) {
            this.cell = cell;
        }

        void addAll(GlbWriter.PosedMesh mesh, double scale) {
            for (PosedPrimitive pp : mesh.posed()) {
                float[] pos = pp.positions();
                for (int k = 0; k + 2 < pos.length; k += 3) {
                    double[] q = {pos[k] * scale, pos[k + 1] * scale, pos[k + 2] * scale};
                    all.add(q);
                    cells.computeIfAbsent(key(cellOf(q[0]), cellOf(q[1]), cellOf(q[2])), c -> new ArrayList<>()).add(q);
                }
            }
        }

        private long cellOf(double v) {
            return (long) Math.floor(v / cell);
        }

        private static long key(long x, long y, long z) {
            return (x * 73_856_093L) ^ (y * 19_349_663L) ^ (z * 83_492_791L);
        }

        boolean hasWithin(double x, double y, double z) {
            long cx = cellOf(x);
            long cy = cellOf(y);
            long cz = cellOf(z);
            for (long i = cx - 1; i <= cx + 1; i++) {
                for (long j = cy - 1; j <= cy + 1; j++) {
                    for (long k = cz - 1; k <= cz + 1; k++) {
                        List<double[]> c = cells.get(key(i, j, k));
                        if (c == null) {
                            continue;
                        }
                        for (double[] q : c) {
                            if (Math.abs(q[0] - x) < cell && Math.abs(q[1] - y) < cell && Math.abs(q[2] - z) < cell) {
                                return true;
                            }
                        }
                    }
                }
            }
            return false;
        }

        /** The per-coordinate (max-norm) distance to the nearest point, by brute force. */
        double nearest(double x, double y, double z) {
            double best = Double.POSITIVE_INFINITY;
            for (double[] q : all) {
                best = Math.min(best, Math.max(Math.abs(q[0] - x), Math.max(Math.abs(q[1] - y), Math.abs(q[2] - z))));
            }
            return best;
        }
    }
}
