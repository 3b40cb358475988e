package io.posekit.export;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

/**
 * posekit's own poses of conformance assets, for {@code tools/gltf-validate/three-check.mjs}, which compares them
 * with three.js's poses of the exported GLBs: per asset, per clip, per conformance sample instant, every skin's
 * skinning matrices (16 per joint, skin joint order) and every mesh instance primitive's skinned positions (keyed by
 * the instance's node — the exported glTF node — and the primitive's index), as JSON.
 *
 * <p>Usage: {@code PoseDump OUT_DIR ASSET_ID...} writes {@code OUT_DIR/<asset-id>.pose.json}.
 */
public final class PoseDump {

    private PoseDump() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        for (int i = 1; i < args.length; i++) {
            String id = args[i];
            ConformanceAssets.Asset asset = ConformanceAssets.all().stream().filter(a -> a.id().equals(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no conformance asset " + id));
            Model model = ConformanceAssets.importModel(asset.files());
            StringBuilder json = new StringBuilder("{\"asset\":\"").append(id).append("\",\"clips\":[");
            for (int c = 0; c < model.clips().size(); c++) {
                Clip clip = model.clips().get(c);
                json.append(c == 0 ? "" : ",").append("{\"name\":").append(GltfJson.string(clip.name()))
                        .append(",\"duration\":").append(clip.duration()).append(",\"samples\":[");
                List<ConformanceAssets.Sample> samples = asset.samples();
                for (int s = 0; s < samples.size(); s++) {
                    ConformanceAssets.Sample sample = samples.get(s);
                    double local = LoopMode.byWireName(sample.mode()).orElseThrow().localTime(sample.time(), clip.duration());
                    json.append(s == 0 ? "" : ",").append("{\"t\":").append(sample.time()).append(",\"mode\":\"")
                            .append(sample.mode()).append("\",\"localTime\":").append(local).append(',');
                    pose(model, clip, local, json);
                    json.append('}');
                }
                json.append("]}");
            }
            json.append("]}\n");
            Files.writeString(out.resolve(id + ".pose.json"), json, StandardCharsets.UTF_8);
            System.err.println("posekit poses of " + id);
        }
    }

    private static void pose(Model model, Clip clip, double t, StringBuilder json) {
        Pose pose = Pose.evaluate(model.rig(), clip, t);
        json.append("\"skins\":[");
        for (int s = 0; s < model.skins().size(); s++) {
            json.append(s == 0 ? "" : ",").append(floats(MeshPoser.skinningMatrices(model.skins().get(s), pose.modelMatrices())));
        }
        json.append("],\"meshes\":[");
        MorphWeights weights = MorphWeights.evaluate(model.meshes(), clip, t);
        for (int m = 0; m < model.meshes().size(); m++) {
            MeshInstance mesh = model.meshes().get(m);
            float[] skinning = mesh.skinned()
                    ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
            List<PosedPrimitive> posed = MeshPoser.pose(mesh, weights.weights(m), skinning, pose.modelMatrices(),
                    EnumSet.of(VertexAttribute.POSITION));
            for (int p = 0; p < posed.size(); p++) {
                json.append(m == 0 && p == 0 ? "" : ",").append("{\"node\":").append(mesh.node()).append(",\"primitive\":")
                        .append(p).append(",\"positions\":").append(floats(posed.get(p).positions())).append('}');
            }
        }
        json.append(']');
    }

    private static String floats(float[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(Float.isFinite(v[i]) ? Float.toString(v[i]) : "null");
        }
        return b.append(']').toString();
    }
}
