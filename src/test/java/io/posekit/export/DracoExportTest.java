package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Compression#DRACO}: the export read back by posekit's own Draco decoder (Google's, as WebAssembly) has the
 * same triangles with the same corner values as the uncompressed export, within the bound each attribute's
 * quantization bits give (known from the bits, not measured): positions {@code e / (2 · 16383)} per component
 * ({@code e} the largest extent of the primitive's positions), texture coordinates and float weights and tangents
 * {@code e / (2 · 4095)} of their own box, normals {@link #OCTAHEDRAL_BOUND} per component; joints and integer
 * weights exactly. Triangles may come in another order and each with its corners
 * rotated (the winding kept): each Draco triangle is matched to an unused uncompressed one. And the document has the
 * form glTF Transform writes.
 */
class DracoExportTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * How far a normal's component moves through Draco's 10-bit octahedral quantization: each of the two octahedral
     * coordinates is rounded to a grid of step {@code 1 / 511} (Draco's {@code center_value} 511), so by at most
     * {@code δ = 1 / 1022}; the unnormalized vector {@code (s, t, 1 − |s| − |t|)} then moves by at most
     * {@code √6 · δ}, and normalizing it (its length is at least {@code 1 / √3}) multiplies that by at most
     * {@code √3}: {@code √18 / 1022} (4.2e-3), plus float32 rounding.
     */
    static final double OCTAHEDRAL_BOUND = Math.sqrt(18) / 1022 + 1e-6;

    @Test
    void theMultiMeshFixtureDecodesToTheSameTriangles() {
        Model model = ConformanceAssets.importModel(List.of(new SourceFile("multi.glb", PosedFixtures.multiMesh().toGlb())));
        int matched = roundTrip("multiMesh", model);
        assertThat(matched).isPositive();
    }

    @Test
    void theConformanceModelsDecodeToTheSameTriangles() {
        org.junit.jupiter.api.Assumptions.assumeTrue(ConformanceAssets.available(), "no conformance data");
        int assets = 0;
        for (ConformanceAssets.Asset a : ConformanceAssets.all()) {
            if (List.of("gltf-BrainStem", "gltf-Fox", "gltf-CesiumMan").contains(a.id())) {
                assertThat(roundTrip(a.id(), ConformanceAssets.importModel(a.files()))).isPositive();
                assets++;
            }
        }
        assertThat(assets).isEqualTo(3);
    }

    @Test
    void theDocumentHasGltfTransformsForm() {
        Model model = ConformanceAssets.importModel(List.of(new SourceFile("multi.glb", PosedFixtures.multiMesh().toGlb())));
        AnimatedGltf export = AnimatedGltf.of(model, options(Compression.DRACO));
        for (JsonNode json : List.of(glbJson(export.glb()), JSON.readTree(export.gltf()))) {
            assertThat(strings(json.get("extensionsUsed"))).contains(DracoCompression.EXTENSION);
            assertThat(strings(json.get("extensionsRequired"))).containsExactly(DracoCompression.EXTENSION);
            int compressed = 0;
            List<Integer> viewsUsed = new ArrayList<>();
            for (JsonNode mesh : json.get("meshes")) {
                for (JsonNode p : mesh.get("primitives")) {
                    JsonNode ext = p.path("extensions").path(DracoCompression.EXTENSION);
                    if (p.has("targets") || p.path("mode").asInt(4) != 4) {
                        assertThat(ext.isMissingNode()).isTrue();
                        continue;
                    }
                    compressed++;
                    viewsUsed.add(ext.get("bufferView").asInt());
                    assertThat(strings(ext.get("attributes").propertyNames()))
                            .containsExactlyElementsOf(strings(p.get("attributes").propertyNames()));
                    for (JsonNode a : p.get("attributes")) {
                        assertThat(json.get("accessors").get(a.asInt()).has("bufferView")).isFalse();
                    }
                    assertThat(json.get("accessors").get(p.get("indices").asInt()).has("bufferView")).isFalse();
                }
            }
            assertThat(compressed).isPositive();
            // every buffer view is used by an accessor, an image or a Draco stream
            for (JsonNode a : json.get("accessors")) {
                if (a.has("bufferView")) {
                    viewsUsed.add(a.get("bufferView").asInt());
                }
            }
            json.path("images").forEach(i -> viewsUsed.add(i.path("bufferView").asInt(-1)));
            for (int v = 0; v < json.get("bufferViews").size(); v++) {
                assertThat(viewsUsed).as("view %d", v).contains(v);
            }
        }
    }

    @Test
    void aDeadlineThatHasPassedStopsTheEncoder() {
        Model model = ConformanceAssets.importModel(List.of(new SourceFile("multi.glb", PosedFixtures.multiMesh().toGlb())));
        byte[] glb = GlbWriter.write(PosedMeshes.all(model, Pose.evaluate(model.rig(), null, 0).modelMatrices()), null,
                Compression.NONE);
        int jsonLength = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        String json = new String(glb, 20, jsonLength, StandardCharsets.UTF_8);
        byte[] bin = java.util.Arrays.copyOfRange(glb, 28 + jsonLength, glb.length);
        assertThatThrownBy(() -> DracoCompression.apply(json, bin, DracoEncoder.Settings.DEFAULT, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("mesh 0 primitive 0: Draco compression did not end within its time limit of 0 ms");
        // and with time, the same document compresses
        assertThat(DracoCompression.apply(json, bin).bin().length).isPositive();
    }

    @Test
    void theEncodersMemoryIsCapped() {
        // a cap of the module's own initial memory is too little for a grid of 90,000 vertices: the encoder fails
        // inside its memory,
        // never the JVM's heap
        float[] positions = new float[3 * N];
        for (int v = 0; v < N; v++) {
            positions[3 * v] = v % W;
            positions[3 * v + 1] = (float) Math.sin(v * 0.37);
            positions[3 * v + 2] = v / W;
        }
        int[] indices = new int[6 * (W - 1) * (W - 1)];
        int k = 0;
        for (int r = 0; r + 1 < W; r++) {
            for (int col = 0; col + 1 < W; col++) {
                int a = r * W + col;
                for (int i : new int[] {a, a + W, a + 1, a + 1, a + W, a + W + 1}) {
                    indices[k++] = i;
                }
            }
        }
        byte[] bytes = new byte[4 * positions.length];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(positions);
        List<DracoEncoder.Attribute> attributes = List.of(new DracoEncoder.Attribute(DracoEncoder.POSITION,
                DracoEncoder.ValueType.FLOAT, 3, false, bytes));
        assertThatThrownBy(() -> DracoEncoder.encode(indices, N, attributes, DracoEncoder.Settings.DEFAULT,
                System.nanoTime() + 30_000_000_000L, Duration.ofSeconds(30), "grid", DracoEncoder.BASE_MEMORY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("grid: Draco compression failed: ");
        DracoEncoder.Encoded e = DracoEncoder.encode(indices, N, attributes, DracoEncoder.Settings.DEFAULT,
                System.nanoTime() + 30_000_000_000L, Duration.ofSeconds(30), "grid");
        assertThat(e.faces()).isEqualTo(2 * (W - 1) * (W - 1));
        assertThat(e.points()).isEqualTo(N);
        assertThat(e.memoryBytes()).isGreaterThan(DracoEncoder.BASE_MEMORY)
                .isLessThanOrEqualTo(DracoEncoder.memoryCap(4L * positions.length + 4L * indices.length));
        System.out.printf("grid of %d vertices: the encoder's memory %d bytes for %d input bytes%n", N,
                e.memoryBytes(), 4L * positions.length + 4L * indices.length);
    }

    @Test
    void accessorsSharedByTwoPrimitivesAreCopiedAndTheirViewsDropped() {
        // two meshes whose primitives share one quad's POSITION and indices accessors (views 0 and 1)
        float[] quad = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
        ByteBuffer bin = ByteBuffer.allocate(60).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : quad) {
            bin.putFloat(f);
        }
        for (int i : new int[] {0, 1, 2, 0, 2, 3}) {
            bin.putShort((short) i);
        }
        String json = "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
                + "\"nodes\":[{\"mesh\":0},{\"mesh\":1}],"
                + "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]},"
                + "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
                + "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
                + "\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5123,\"count\":6,"
                + "\"type\":\"SCALAR\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":48},"
                + "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":12}],\"buffers\":[{\"byteLength\":60}]}";
        DracoCompression.Result r = DracoCompression.apply(json, bin.array());
        JsonNode root = r.root();
        JsonNode a = root.get("meshes").get(0).get("primitives").get(0);
        JsonNode b = root.get("meshes").get(1).get("primitives").get(0);
        assertThat(a.get("attributes").get("POSITION").asInt()).isNotEqualTo(b.get("attributes").get("POSITION").asInt());
        assertThat(a.get("indices").asInt()).isNotEqualTo(b.get("indices").asInt());
        assertThat(root.get("accessors").size()).isEqualTo(4);
        for (JsonNode accessor : root.get("accessors")) {
            assertThat(accessor.has("bufferView")).isFalse();
        }
        // the two streams, and nothing of the old views
        assertThat(root.get("bufferViews").size()).isEqualTo(2);
        assertThat(a.get("extensions").get(DracoCompression.EXTENSION).get("bufferView").asInt()).isZero();
        assertThat(b.get("extensions").get(DracoCompression.EXTENSION).get("bufferView").asInt()).isOne();
        byte[] jsonBytes = r.json(null);
        int jsonLength = (jsonBytes.length + 3) / 4 * 4;
        ByteBuffer glb = ByteBuffer.allocate(28 + jsonLength + r.bin().length).order(ByteOrder.LITTLE_ENDIAN);
        glb.putInt(GltfWriter.MAGIC).putInt(2).putInt(glb.capacity()).putInt(jsonLength).putInt(GltfWriter.CHUNK_JSON)
                .put(jsonBytes);
        while (glb.position() < 20 + jsonLength) {
            glb.put((byte) ' ');
        }
        glb.putInt(r.bin().length).putInt(GltfWriter.CHUNK_BIN).put(r.bin());
        Model back = RoundTrip.reimport(glb.array());
        assertThat(back.meshes()).hasSize(2);
        for (MeshInstance m : back.meshes()) {
            Primitive p = m.primitives().getFirst();
            assertThat(p.indices()).hasSize(6);
            // the quad's corners, exactly (every coordinate is 0 or 1: on Draco's quantization grid)
            List<String> corners = new ArrayList<>();
            for (int i : p.indices()) {
                corners.add(p.positions()[3 * i] + "," + p.positions()[3 * i + 1]);
            }
            assertThat(corners).containsExactlyInAnyOrder("0.0,0.0", "1.0,0.0", "1.0,1.0", "0.0,0.0", "1.0,1.0",
                    "0.0,1.0");
        }
    }

    @Test
    void degenerateTrianglesAreDroppedByEdgebreakerNeverAFailure() {
        // a quad (2 triangles) and 2 degenerate triangles: one with a repeated index, one with three equal positions
        float[] positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5};
        int[] indices = {0, 1, 2, 0, 2, 3, 0, 0, 1, 4, 5, 6};
        byte[] bytes = new byte[4 * positions.length];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(positions);
        List<DracoEncoder.Attribute> attributes = List.of(new DracoEncoder.Attribute(DracoEncoder.POSITION,
                DracoEncoder.ValueType.FLOAT, 3, false, bytes));
        for (int method : new int[] {DracoEncoder.MESH_EDGEBREAKER_ENCODING, DracoEncoder.MESH_SEQUENTIAL_ENCODING}) {
            DracoEncoder.Settings settings = new DracoEncoder.Settings(method, 5, 5, new int[] {14, 10, 8, 12, 12});
            DracoEncoder.Encoded e = DracoEncoder.encode(indices, 7, attributes, settings,
                    System.nanoTime() + 30_000_000_000L, Duration.ofSeconds(30), "quad");
            // edgebreaker drops both (the equal points merged first, so the second repeats one too); sequential keeps
            // the 4 triangles over the 5 distinct points
            boolean edgebreaker = method == DracoEncoder.MESH_EDGEBREAKER_ENCODING;
            assertThat(e.faces()).isEqualTo(edgebreaker ? 2 : 4);
            assertThat(e.points()).isEqualTo(edgebreaker ? 4 : 5);
        }
    }

    /** Vertices per row of {@link #theEncodersMemoryIsCapped}'s grid: more than the module's initial memory encodes. */
    private static final int W = 300;
    private static final int N = W * W;

    private static AnimatedGltf.Options options(Compression c) {
        return new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE, c);
    }

    /**
     * Exports {@code model} as animated GLB, animated glTF and posed GLB, plain and Draco-compressed, imports each
     * again and matches the triangles; prints sizes and encode times. Returns the triangles matched.
     */
    private static int roundTrip(String id, Model model) {
        int matched = 0;
        AnimatedGltf plain = AnimatedGltf.of(model, options(Compression.NONE));
        long t0 = System.nanoTime();
        AnimatedGltf draco = AnimatedGltf.of(model, options(Compression.DRACO));
        byte[] glb = draco.glb();
        long t1 = System.nanoTime();
        byte[] gltf = draco.gltf();
        byte[] plainGlb = plain.glb();
        System.out.printf("%s animated.glb: none %d bytes, draco %d bytes (%.1f ms to write)%n", id, plainGlb.length,
                glb.length, (t1 - t0) / 1e6);
        Model expected = RoundTrip.reimport(plainGlb);
        matched += match(id + " animated.glb", expected, RoundTrip.reimport(glb));
        matched += match(id + " animated.gltf", expected,
                ConformanceAssets.importModel(List.of(new SourceFile("export.gltf", gltf))));
        float[] matrices = Pose.evaluate(model.rig(), model.clips().isEmpty() ? null : model.clips().getFirst(), 0.5)
                .modelMatrices();
        Model posedPlain = RoundTrip.reimport(GlbWriter.write(PosedMeshes.all(model, matrices), null, Compression.NONE));
        Model posedDraco = RoundTrip.reimport(GlbWriter.write(PosedMeshes.all(model, matrices), null, Compression.DRACO));
        matched += match(id + " posed.glb", posedPlain, posedDraco);
        return matched;
    }

    private static int match(String where, Model expected, Model actual) {
        assertThat(actual.meshes()).as(where).hasSameSizeAs(expected.meshes());
        int matched = 0;
        for (int m = 0; m < expected.meshes().size(); m++) {
            MeshInstance em = expected.meshes().get(m);
            MeshInstance am = actual.meshes().get(m);
            assertThat(am.primitives()).as(where).hasSameSizeAs(em.primitives());
            for (int p = 0; p < em.primitives().size(); p++) {
                matched += match(where + " mesh " + m + " primitive " + p, em.primitives().get(p),
                        am.primitives().get(p));
            }
        }
        return matched;
    }

    /** The corner values of each vertex, and the bound of each, for one primitive. */
    private record Corners(List<float[]> values, double[] bounds) {
    }

    private static Corners corners(Primitive e, Primitive a) {
        List<float[]> values = new ArrayList<>();
        List<Double> bounds = new ArrayList<>();
        values.add(e.positions());
        bounds.add(halfStep(e.positions(), 3, 14));
        if (e.normals() != null) {
            values.add(e.normals());
            bounds.add(OCTAHEDRAL_BOUND);
        }
        if (e.attributes().contains("TANGENT")) {
            values.add(e.tangents());
            bounds.add(halfStep(e.tangents(), 4, 12));
        }
        for (float[] uv : e.texcoordSets()) {
            values.add(uv);
            bounds.add(halfStep(uv, 2, 12));
        }
        if (e.colors() != null) {
            values.add(e.colors());
            bounds.add(halfStep(e.colors(), 4, 8));
        }
        if (e.influencesPerVertex() > 0) {
            float[] joints = new float[e.joints().length];
            for (int i = 0; i < joints.length; i++) {
                joints[i] = e.joints()[i];
            }
            values.add(joints);
            bounds.add(0.0);
            values.add(e.weights());
            bounds.add(halfStep(e.weights(), e.influencesPerVertex(), 12));
        }
        double[] b = new double[bounds.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = bounds.get(i);
        }
        return new Corners(values, b);
    }

    /** The actual primitive's arrays in the same order as {@link #corners}. */
    private static List<float[]> actualValues(Primitive e, Primitive a) {
        List<float[]> values = new ArrayList<>();
        values.add(a.positions());
        if (e.normals() != null) {
            values.add(a.normals());
        }
        if (e.attributes().contains("TANGENT")) {
            values.add(a.tangents());
        }
        values.addAll(a.texcoordSets());
        if (e.colors() != null) {
            values.add(a.colors());
        }
        if (e.influencesPerVertex() > 0) {
            float[] joints = new float[a.joints().length];
            for (int i = 0; i < joints.length; i++) {
                joints[i] = a.joints()[i];
            }
            values.add(joints);
            values.add(a.weights());
        }
        return values;
    }

    /**
     * Half a quantization step of {@code bits} bits over the largest extent of {@code values}' box ({@code width}
     * components per vertex), as Draco quantizes, plus float32 rounding of the dequantization.
     */
    private static double halfStep(float[] values, int width, int bits) {
        double extent = 0;
        double largest = 0;
        for (int c = 0; c < width; c++) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = c; i < values.length; i += width) {
                min = Math.min(min, values[i]);
                max = Math.max(max, values[i]);
            }
            extent = Math.max(extent, max - min);
            largest = Math.max(largest, Math.max(Math.abs(min), Math.abs(max)));
        }
        return extent / (2.0 * ((1 << bits) - 1)) + 4 * Math.ulp((float) largest);
    }

    private static int match(String where, Primitive e, Primitive a) {
        assertThat(a.mode()).as(where).isEqualTo(e.mode());
        boolean compressible = e.mode() == PrimitiveMode.TRIANGLES && e.morphTargetCount() == 0;
        assertThat(a.attributes()).as(where).containsExactlyInAnyOrderElementsOf(e.attributes());
        assertThat(a.influencesPerVertex()).as(where).isEqualTo(e.influencesPerVertex());
        assertThat(a.texcoordSets()).as(where).hasSameSizeAs(e.texcoordSets());
        if (!compressible) {
            assertThat(a.positions()).as(where).isEqualTo(e.positions());
            return 0;
        }
        Corners c = corners(e, a);
        List<float[]> actual = actualValues(e, a);
        int[] ei = triangles(e);
        int[] ai = triangles(a);
        assertThat(ai.length).as(where + ": triangles").isEqualTo(ei.length);
        // the expected triangles by the grid cell of their first corner's position (cells of 4 bounds)
        double cell = Math.max(4 * c.bounds()[0], 1e-30);
        Map<List<Long>, List<Integer>> grid = new HashMap<>();
        for (int t = 0; t < ei.length / 3; t++) {
            for (int k = 0; k < 3; k++) {
                grid.computeIfAbsent(key(e.positions(), ei[3 * t + k], cell, 0, 0, 0), x -> new ArrayList<>()).add(t);
            }
        }
        boolean[] used = new boolean[ei.length / 3];
        double[] worst = new double[c.bounds().length];
        for (int t = 0; t < ai.length / 3; t++) {
            int found = -1;
            search:
            for (int dx = -1; dx <= 1; dx++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dz = -1; dz <= 1; dz++) {
                        for (int candidate : grid.getOrDefault(key(a.positions(), ai[3 * t], cell, dx, dy, dz), List.of())) {
                            if (used[candidate]) {
                                continue;
                            }
                            for (int r = 0; r < 3; r++) {
                                if (same(c, actual, ei, candidate, ai, t, r, null)) {
                                    same(c, actual, ei, candidate, ai, t, r, worst);
                                    found = candidate;
                                    break search;
                                }
                            }
                        }
                    }
                }
            }
            if (found < 0) {
                // the message: the nearest unused triangle's differences
                double best = Double.POSITIVE_INFINITY;
                double[] diff = null;
                for (int s2 = 0; s2 < ei.length / 3; s2++) {
                    for (int r = 0; r < 3 && !used[s2]; r++) {
                        double[] d = new double[c.bounds().length];
                        same(c, actual, ei, s2, ai, t, r, d);
                        if (d[0] < best) {
                            best = d[0];
                            diff = d;
                        }
                    }
                }
                assertThat(found).as("%s: Draco triangle %d (%s) matches no uncompressed triangle within %s; the nearest"
                        + " differs by %s", where, t, corner(a.positions(), ai, t),
                        java.util.Arrays.toString(c.bounds()), java.util.Arrays.toString(diff)).isNotNegative();
            }
            used[found] = true;
        }
        System.out.printf("  %s: %d triangles, %d → %d vertices, largest differences %s (bounds %s)%n", where,
                ai.length / 3, e.vertexCount(), a.vertexCount(), java.util.Arrays.toString(worst),
                java.util.Arrays.toString(c.bounds()));
        return ai.length / 3;
    }

    private static String corner(float[] positions, int[] indices, int t) {
        int v = indices[3 * t];
        return positions[3 * v] + ", " + positions[3 * v + 1] + ", " + positions[3 * v + 2];
    }

    private static List<Long> key(float[] positions, int v, double cell, int dx, int dy, int dz) {
        return List.of((long) Math.floor(positions[3 * v] / cell) + dx, (long) Math.floor(positions[3 * v + 1] / cell) + dy,
                (long) Math.floor(positions[3 * v + 2] / cell) + dz);
    }

    /**
     * Whether Draco triangle {@code t}, its corners rotated by {@code r}, has expected triangle {@code s}'s corner
     * values within the bounds; with {@code worst}, records the largest differences instead.
     */
    private static boolean same(Corners c, List<float[]> actual, int[] ei, int s, int[] ai, int t, int r,
            double[] worst) {
        for (int k = 0; k < 3; k++) {
            int ev = ei[3 * s + (k + r) % 3];
            int av = ai[3 * t + k];
            for (int i = 0; i < c.bounds().length; i++) {
                float[] ea = c.values().get(i);
                float[] aa = actual.get(i);
                int width = ea.length / (ei.length == 0 ? 1 : vertexCount(c));
                for (int j = 0; j < width; j++) {
                    double d = Math.abs(ea[ev * width + j] - aa[av * width + j]);
                    if (worst != null) {
                        worst[i] = Math.max(worst[i], d);
                    } else if (!(d <= c.bounds()[i])) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static int vertexCount(Corners c) {
        return c.values().getFirst().length / 3;
    }

    private static int[] triangles(Primitive p) {
        if (p.indices() != null) {
            return p.indices();
        }
        int[] out = new int[p.vertexCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = i;
        }
        return out;
    }

    private static JsonNode glbJson(byte[] glb) {
        int length = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        return JSON.readTree(new String(glb, 20, length, StandardCharsets.UTF_8).strip());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    private static List<String> strings(java.util.Collection<String> names) {
        return new ArrayList<>(names);
    }
}
