package io.posekit.export;

import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the {@code compress=draco} exports three.js checks in {@code tools/draco-export}: for the multi-mesh fixture
 * and the conformance models Fox, CesiumMan and BrainStem (when the data is there), {@code <id>-animated.glb},
 * {@code <id>-animated.gltf} and {@code <id>-posed.glb}, each beside {@code <file>.posekit.json}: what posekit's own
 * importer (Google's decoder as WebAssembly) decodes from it, per glTF mesh and primitive (by the mesh's source
 * index): {@code indices} and each attribute's values per vertex as floats ({@code POSITION}, {@code NORMAL},
 * {@code TANGENT}, {@code TEXCOORD_n}, {@code COLOR_0}, {@code JOINTS_0}, {@code WEIGHTS_0}).
 *
 * <p>Usage: {@code ExportDracoFiles OUT_DIR} (the conformance data from {@code posekit.conformance.dir}).
 */
public final class ExportDracoFiles {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ExportDracoFiles() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ExportDracoFiles OUT_DIR");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Map<String, Model> models = new LinkedHashMap<>();
        models.put("multiMesh", ConformanceAssets.importModel(List.of(new SourceFile("multi.glb",
                PosedFixtures.multiMesh().toGlb()))));
        if (ConformanceAssets.available()) {
            for (ConformanceAssets.Asset a : ConformanceAssets.all()) {
                if (List.of("gltf-BrainStem", "gltf-Fox", "gltf-CesiumMan").contains(a.id())) {
                    models.put(a.id(), ConformanceAssets.importModel(a.files()));
                }
            }
        }
        AnimatedGltf.Options options = new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE,
                Compression.DRACO);
        for (Map.Entry<String, Model> e : models.entrySet()) {
            Model model = e.getValue();
            AnimatedGltf export = AnimatedGltf.of(model, options);
            write(out, e.getKey() + "-animated.glb", export.glb());
            write(out, e.getKey() + "-animated.gltf", export.gltf());
            float[] matrices = Pose.evaluate(model.rig(), model.clips().isEmpty() ? null : model.clips().getFirst(), 0.5)
                    .modelMatrices();
            write(out, e.getKey() + "-posed.glb", GlbWriter.write(PosedMeshes.all(model, matrices), null,
                    Compression.DRACO));
            System.out.println("exported " + e.getKey());
        }
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.write(dir.resolve(name), bytes);
        Model back = ConformanceAssets.importModel(List.of(new SourceFile(name, bytes)));
        ObjectNode root = JSON.createObjectNode();
        ArrayNode meshes = root.putArray("meshes");
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (MeshInstance m : back.meshes()) {
            if (!seen.add(m.sourceMesh())) {
                continue;
            }
            ObjectNode mesh = meshes.addObject();
            mesh.put("mesh", m.sourceMesh());
            ArrayNode prims = mesh.putArray("primitives");
            for (Primitive p : m.primitives()) {
                ObjectNode o = prims.addObject();
                o.put("mode", p.mode().wireName());
                if (p.indices() != null) {
                    ArrayNode a = o.putArray("indices");
                    for (int i : p.indices()) {
                        a.add(i);
                    }
                }
                put(o, "POSITION", p.positions());
                put(o, "NORMAL", p.normals());
                if (p.attributes().contains("TANGENT")) {
                    put(o, "TANGENT", p.tangents());
                }
                for (int s = 0; s < p.texcoordSets().size(); s++) {
                    put(o, "TEXCOORD_" + s, p.texcoordSets().get(s));
                }
                put(o, "COLOR_0", p.colors());
                if (p.influencesPerVertex() > 0) {
                    int k = p.influencesPerVertex();
                    int n = p.vertexCount();
                    float[] joints = new float[4 * n];
                    float[] weights = new float[4 * n];
                    for (int v = 0; v < n; v++) {
                        for (int c = 0; c < 4; c++) {
                            joints[4 * v + c] = p.joints()[v * k + c];
                            weights[4 * v + c] = p.weights()[v * k + c];
                        }
                    }
                    put(o, "JOINTS_0", joints);
                    put(o, "WEIGHTS_0", weights);
                }
            }
        }
        Files.write(dir.resolve(name + ".posekit.json"), JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8));
    }

    private static void put(ObjectNode o, String name, float[] values) {
        if (values == null) {
            return;
        }
        ArrayNode a = o.putArray(name);
        for (float v : values) {
            a.add(v);
        }
    }
}
