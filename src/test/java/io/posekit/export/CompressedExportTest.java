package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.meshopt.MeshoptDecoder;
import io.posekit.asset.gltf.meshopt.MeshoptFilter;
import io.posekit.asset.gltf.meshopt.MeshoptMode;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Compression}: posekit's own importer reads the quantized and meshopt-compressed exports, and they pose like
 * the uncompressed export within the quantization's stated error — a skinned or rigid vertex within {@code ‖M‖·δ}
 * ({@code δ = √3·(h/65534 + float32 rounding)} the dequantized position's error, {@code ‖M‖} the Frobenius norm of the
 * largest skinning or model matrix's 3×3 part) plus the conformance tolerance {@code 1e-5·D}. The meshopt export
 * is lossless over the quantized one: its compressed views decode (with posekit's decoder, written independently
 * from the specification) to the quantized export's views bit for bit (triangles up to the codec's rotation), and
 * its vertices pose bit for bit like the quantized export's.
 */
class CompressedExportTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A GLB's JSON and BIN chunk. */
    record Glb(JsonNode json, ByteBuffer bin) {

        static Glb parse(byte[] glb) {
            ByteBuffer b = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(b.getInt(0)).isEqualTo(0x46546C67);
            assertThat(b.getInt(8)).isEqualTo(glb.length);
            int jsonLength = b.getInt(12);
            JsonNode json = JSON.readTree(new String(glb, 20, jsonLength, StandardCharsets.UTF_8).strip());
            int at = 20 + jsonLength;
            ByteBuffer bin = ByteBuffer.wrap(glb, at + 8, b.getInt(at)).slice().order(ByteOrder.LITTLE_ENDIAN);
            return new Glb(json, bin);
        }

        /** The bytes of buffer view {@code i} of buffer 0. */
        byte[] view(int i) {
            JsonNode v = json.get("bufferViews").get(i);
            assertThat(v.get("buffer").asInt()).isZero();
            byte[] out = new byte[v.get("byteLength").asInt()];
            bin.get(v.path("byteOffset").asInt(0), out);
            return out;
        }

        List<String> strings(String field) {
            List<String> out = new ArrayList<>();
            json.path(field).forEach(n -> out.add(n.asString()));
            return out;
        }
    }

    private static Model reimport(byte[] glb) {
        return ConformanceAssets.importModel(List.of(new SourceFile("export.glb", glb)));
    }

    // ------------------------------------------------------------------ the JSON of each compression

    @Test
    void eachCompressionDeclaresWhatItUses() {
        Model multi = reimport(PosedFixtures.multiMesh().toGlb());
        Glb none = Glb.parse(AnimatedGltf.of(multi, options(Compression.NONE)).glb());
        Glb quantized = Glb.parse(AnimatedGltf.of(multi, options(Compression.QUANTIZE)).glb());
        Glb meshopt = Glb.parse(AnimatedGltf.of(multi, options(Compression.MESHOPT)).glb());
        assertThat(none.strings("extensionsRequired")).doesNotContain("KHR_mesh_quantization");
        assertThat(quantized.strings("extensionsUsed")).contains("KHR_mesh_quantization").doesNotContain("EXT_meshopt_compression");
        assertThat(quantized.strings("extensionsRequired")).containsExactly("KHR_mesh_quantization");
        assertThat(meshopt.strings("extensionsRequired")).containsExactly("KHR_mesh_quantization", "EXT_meshopt_compression");
        assertThat(meshopt.strings("extensionsUsed")).contains("KHR_mesh_quantization", "EXT_meshopt_compression");
        // positions int16 normalized, 8-byte stride, integer bounds within ±32767; the strip's UVs (in [0, 1]) uint16
        JsonNode strip = quantized.json().get("meshes").get(0).get("primitives").get(0);
        JsonNode position = quantized.json().get("accessors").get(strip.get("attributes").get("POSITION").asInt());
        assertThat(position.get("componentType").asInt()).isEqualTo(5122);
        assertThat(position.get("normalized").asBoolean()).isTrue();
        assertThat(position.get("max").get(1).asInt()).isEqualTo(32767);
        assertThat(position.get("min").get(1).asInt()).isEqualTo(-32767);
        assertThat(quantized.json().get("bufferViews").get(position.get("bufferView").asInt()).get("byteStride").asInt())
                .isEqualTo(8);
        JsonNode uv = quantized.json().get("accessors").get(strip.get("attributes").get("TEXCOORD_0").asInt());
        assertThat(uv.get("componentType").asInt()).isEqualTo(5123);
        // meshopt: buffer 1 the fallback, without data; every view but the image's refers to it
        JsonNode buffers = meshopt.json().get("buffers");
        assertThat(buffers).hasSize(2);
        assertThat(buffers.get(1).has("uri")).isFalse();
        assertThat(buffers.get(1).get("extensions").get("EXT_meshopt_compression").get("fallback").asBoolean()).isTrue();
        int compressed = 0;
        for (JsonNode v : meshopt.json().get("bufferViews")) {
            JsonNode ext = v.path("extensions").path("EXT_meshopt_compression");
            if (!ext.isMissingNode()) {
                compressed++;
                assertThat(v.get("buffer").asInt()).isEqualTo(1);
                assertThat(ext.get("count").asLong() * ext.get("byteStride").asInt()).isEqualTo(v.get("byteLength").asLong());
            } else {
                assertThat(v.get("buffer").asInt()).isZero();
            }
        }
        assertThat(compressed).isPositive().isLessThan(meshopt.json().get("bufferViews").size()); // never the PNG
    }

    // ------------------------------------------------------------------ meshopt is lossless over quantize

    @Test
    void meshoptViewsDecodeToTheQuantizedViews() {
        Model multi = reimport(PosedFixtures.multiMesh().toGlb());
        assertViewsDecodeTo(AnimatedGltf.of(multi, options(Compression.MESHOPT)).glb(),
                AnimatedGltf.of(multi, options(Compression.QUANTIZE)).glb());
        var meshes = PosedMeshes.all(multi, Pose.evaluate(multi.rig(), multi.clips().getFirst(), 0.5).modelMatrices());
        assertViewsDecodeTo(GlbWriter.write(meshes, null, Compression.MESHOPT),
                GlbWriter.write(meshes, null, Compression.QUANTIZE));
    }

    private static void assertViewsDecodeTo(byte[] meshoptGlb, byte[] quantizedGlb) {
        Glb m = Glb.parse(meshoptGlb);
        Glb q = Glb.parse(quantizedGlb);
        assertThat(m.json().get("bufferViews")).hasSameSizeAs(q.json().get("bufferViews"));
        byte[] bin = new byte[m.bin().capacity()];
        m.bin().get(0, bin);
        for (int i = 0; i < q.json().get("bufferViews").size(); i++) {
            JsonNode ext = m.json().get("bufferViews").get(i).path("extensions").path("EXT_meshopt_compression");
            byte[] expected = q.view(i);
            if (ext.isMissingNode()) {
                assertThat(m.view(i)).as("view %d", i).isEqualTo(expected);
                continue;
            }
            MeshoptMode mode = MeshoptMode.of(ext.get("mode").asString());
            byte[] decoded = MeshoptDecoder.decode(bin, ext.get("byteOffset").asInt(), ext.get("byteLength").asInt(),
                    ext.get("count").asInt(), ext.get("byteStride").asInt(), mode, MeshoptFilter.NONE,
                    new DecodeBudget(1L << 30), "view " + i);
            if (mode == MeshoptMode.TRIANGLES) {
                int stride = ext.get("byteStride").asInt();
                assertThat(canonicalTriangles(decoded, stride)).as("view %d", i).isEqualTo(canonicalTriangles(expected, stride));
            } else {
                assertThat(decoded).as("view %d (%s)", i, mode).isEqualTo(expected);
            }
        }
    }

    private static int[] canonicalTriangles(byte[] data, int stride) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int[] v = new int[data.length / stride];
        for (int i = 0; i < v.length; i++) {
            v[i] = stride == 2 ? b.getShort(2 * i) & 0xFFFF : b.getInt(4 * i);
        }
        for (int t = 0; t < v.length; t += 3) {
            int[] best = {v[t], v[t + 1], v[t + 2]};
            for (int r = 1; r < 3; r++) {
                int[] rot = {v[t + r], v[t + (r + 1) % 3], v[t + (r + 2) % 3]};
                if (Arrays.compare(rot, best) < 0) {
                    best = rot;
                }
            }
            System.arraycopy(best, 0, v, t, 3);
        }
        return v;
    }

    // ------------------------------------------------------------------ posing within the stated error

    @Test
    void posedGlbsPoseLikeTheUncompressedOne() {
        Model multi = reimport(PosedFixtures.multiMesh().toGlb());
        for (double t : new double[] {0, 0.5, 1.5}) {
            var meshes = PosedMeshes.all(multi, Pose.evaluate(multi.rig(), multi.clips().getFirst(), t).modelMatrices());
            Model none = reimport(GlbWriter.write(meshes, null, Compression.NONE));
            Model quantized = reimport(GlbWriter.write(meshes, null, Compression.QUANTIZE));
            Model meshopt = reimport(GlbWriter.write(meshes, null, Compression.MESHOPT));
            // each mesh quantized in its own box: the bound of the largest
            double h = 0;
            for (var m : meshes) {
                h = Math.max(h, PositionQuantization.around(m.posed().stream().map(PosedPrimitive::positions).toList()).h());
            }
            Deviation d = deviation(none, null, quantized, null, t, h);
            assertThat(d.position).as("t=%s quantized vs float, bound %s", t, d.bound).isLessThanOrEqualTo(d.bound);
            assertThat(d.position).as("t=%s: the quantization shows", t).isGreaterThan(0);
            assertThat(deviation(quantized, null, meshopt, null, t, h).position).as("t=%s meshopt vs quantized", t)
                    .isZero();
        }
    }

    @Test
    void animatedExportsOfAFixturePoseLikeTheUncompressedOne() {
        Model multi = reimport(PosedFixtures.multiMesh().toGlb());
        assertPoseLikeUncompressed("multiMesh", multi, List.of(0.0, 0.25, 0.5, 1.0, 1.5));
    }

    static Stream<String> assets() {
        if (!ConformanceAssets.available()) {
            return Stream.of("none");
        }
        return ConformanceAssets.all().stream().map(ConformanceAssets.Asset::id).filter(id -> id.startsWith("gltf-"));
    }

    /** Every conformance glTF asset (BrainStem, Fox, CesiumMan among them) at its conformance sample times. */
    @ParameterizedTest
    @MethodSource("assets")
    void animatedExportsOfTheConformanceAssetsPoseLikeTheUncompressedOnes(String id) {
        assumeTrue(ConformanceAssets.available(), "no conformance data at " + ConformanceAssets.root());
        ConformanceAssets.Asset asset = ConformanceAssets.all().stream().filter(a -> a.id().equals(id)).findFirst()
                .orElseThrow();
        Model original = ConformanceAssets.importModel(asset.files());
        List<Double> times = new ArrayList<>();
        for (ConformanceAssets.Sample s : asset.samples()) {
            times.add(s.time());
        }
        if (times.isEmpty()) {
            times.add(0.0);
        }
        assertPoseLikeUncompressed(id, original, times);
    }

    private static void assertPoseLikeUncompressed(String id, Model original, List<Double> times) {
        Map<Compression, byte[]> glbs = new LinkedHashMap<>();
        for (Compression c : new Compression[] {Compression.NONE, Compression.QUANTIZE, Compression.MESHOPT}) {
            glbs.put(c, AnimatedGltf.of(original, options(c)).glb());
        }
        Model none = reimport(glbs.get(Compression.NONE));
        Model quantized = reimport(glbs.get(Compression.QUANTIZE));
        Model meshopt = reimport(glbs.get(Compression.MESHOPT));
        double h = PositionQuantization.around(original.meshes().stream().flatMap(m -> m.primitives().stream())
                .map(p -> p.positions()).toList()).h();
        double worst = 0;
        double bound = 0;
        for (int c = 0; c < Math.max(1, none.clips().size()); c++) {
            Clip a = none.clips().isEmpty() ? null : none.clips().get(c);
            Clip b = quantized.clips().isEmpty() ? null : quantized.clips().get(c);
            Clip m = meshopt.clips().isEmpty() ? null : meshopt.clips().get(c);
            for (double t : times) {
                double local = a == null ? 0 : LoopMode.REPEAT.localTime(t, a.duration());
                Deviation d = deviation(none, a, quantized, b, local, h);
                assertThat(d.position).as("%s clip %d t=%s quantized vs float", id, c, t).isLessThanOrEqualTo(d.bound);
                worst = Math.max(worst, d.position / d.bound);
                bound = Math.max(bound, d.bound);
                assertThat(deviation(quantized, b, meshopt, m, local, h).position)
                        .as("%s clip %d t=%s meshopt vs quantized", id, c, t).isZero();
            }
        }
        System.out.printf(Locale.ROOT, "compressed export %-24s none %9d B, quantize %9d B, meshopt %9d B; "
                + "largest deviation %.2f of the bound (bound up to %.3g, h %.4g)%n", id, glbs.get(Compression.NONE).length,
                glbs.get(Compression.QUANTIZE).length, glbs.get(Compression.MESHOPT).length, worst, bound, h);
        // a view is compressed only when that shrinks it; the JSON grows by the extension objects
        assertThat(glbs.get(Compression.MESHOPT).length).isLessThan(glbs.get(Compression.QUANTIZE).length + 4096);
        if (original.meshes().stream().mapToInt(mi -> mi.primitives().stream().mapToInt(p -> p.vertexCount()).sum()).sum()
                > 1000) {
            assertThat(glbs.get(Compression.MESHOPT).length).isLessThan(glbs.get(Compression.QUANTIZE).length);
            assertThat(glbs.get(Compression.QUANTIZE).length).isLessThan(glbs.get(Compression.NONE).length);
        }
    }

    private static AnimatedGltf.Options options(Compression c) {
        return new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE, c);
    }

    /** The largest vertex distance between two models' posed instances, and its bound. */
    record Deviation(double position, double bound) {
    }

    /**
     * Poses every instance of {@code x} and {@code y} at clip-local time {@code t} and returns the largest distance of
     * corresponding vertices (instances matched by name and order) and the stated bound
     * {@code ‖M‖·√3·(h/65534 + 4 ulp) + 1e-5·D}.
     */
    private static Deviation deviation(Model x, Clip cx, Model y, Clip cy, double t, double h) {
        Map<String, List<Posed>> px = posed(x, cx, t);
        Map<String, List<Posed>> py = posed(y, cy, t);
        assertThat(py.keySet()).isEqualTo(px.keySet());
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        double norm = 0;
        double worst = 0;
        double largestCentre = 0;
        for (Map.Entry<String, List<Posed>> e : px.entrySet()) {
            List<Posed> a = e.getValue();
            List<Posed> b = py.get(e.getKey());
            assertThat(b).as(e.getKey()).hasSameSizeAs(a);
            for (int i = 0; i < a.size(); i++) {
                norm = Math.max(norm, a.get(i).matrixNorm);
                float[] va = a.get(i).primitive.positions();
                float[] vb = b.get(i).primitive.positions();
                assertThat(vb).as(e.getKey()).hasSameSizeAs(va);
                for (int k = 0; k < va.length; k += 3) {
                    double dx = va[k] - vb[k];
                    double dy = va[k + 1] - vb[k + 1];
                    double dz = va[k + 2] - vb[k + 2];
                    worst = Math.max(worst, Math.sqrt(dx * dx + dy * dy + dz * dz));
                    for (int c = 0; c < 3; c++) {
                        min[c] = Math.min(min[c], va[k + c]);
                        max[c] = Math.max(max[c], va[k + c]);
                    }
                }
            }
        }
        for (MeshInstance mi : y.meshes()) {
            for (var p : mi.primitives()) {
                for (float v : p.positions()) {
                    largestCentre = Math.max(largestCentre, Math.abs(v));
                }
            }
        }
        double diagonal = Math.sqrt(Math.pow(max[0] - min[0], 2) + Math.pow(max[1] - min[1], 2) + Math.pow(max[2] - min[2], 2));
        double delta = Math.sqrt(3) * (h / 65534 + 4 * Math.ulp((float) (largestCentre + h)));
        return new Deviation(worst, norm * delta + 1e-5 * (diagonal > 0 ? diagonal : 1));
    }

    /** A posed primitive and the Frobenius norm of the 3×3 part of the largest matrix that moved it. */
    record Posed(PosedPrimitive primitive, double matrixNorm) {
    }

    /** Every instance's posed primitives by "name/skinned", in instance order. */
    private static Map<String, List<Posed>> posed(Model model, Clip clip, double t) {
        Pose pose = Pose.evaluate(model.rig(), clip, t);
        MorphWeights weights = MorphWeights.evaluate(model.meshes(), clip, t);
        Map<String, List<Posed>> out = new java.util.TreeMap<>();
        for (int m = 0; m < model.meshes().size(); m++) {
            MeshInstance mesh = model.meshes().get(m);
            float[] skinning = mesh.skinned()
                    ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
            double norm = 0;
            if (skinning != null) {
                for (int j = 0; j < skinning.length; j += 16) {
                    norm = Math.max(norm, frobenius3(skinning, j));
                }
            }
            // rigid primitives move with their node's model matrix (in the reference model x, where the dequantizing
            // child node of the compressed file is not)
            double rigid = frobenius3(pose.modelMatrices(), 16 * mesh.node());
            List<PosedPrimitive> prims = MeshPoser.pose(mesh, weights.weights(m), skinning, pose.modelMatrices(),
                    EnumSet.of(VertexAttribute.POSITION));
            String key = mesh.name() + "/" + mesh.skinned();
            for (int p = 0; p < prims.size(); p++) {
                boolean skinnedPrim = mesh.skinned() && mesh.primitives().get(p).influencesPerVertex() > 0;
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(new Posed(prims.get(p),
                        skinnedPrim ? norm : rigid));
            }
        }
        return out;
    }

    private static double frobenius3(float[] m, int o) {
        double s = 0;
        for (int c = 0; c < 3; c++) {
            for (int r = 0; r < 3; r++) {
                s += m[o + 4 * c + r] * (double) m[o + 4 * c + r];
            }
        }
        return Math.sqrt(s);
    }
}
