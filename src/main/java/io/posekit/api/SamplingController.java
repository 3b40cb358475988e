package io.posekit.api;

import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.VertexAttribute;
import io.posekit.store.AssetRepository;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sampling an asset at a clip and time ({@code /api/v1/assets/{id}/…}): poses, skinning matrices, bind-shape
 * geometry and skinned vertices. Every sampling endpoint takes {@code clip}, {@code time} and {@code loop}
 * (see {@link Sampling}) and echoes them with the clip-local time it sampled.
 *
 * <p>Matrices and skinned vertices are also available as raw little-endian float32 with
 * {@code Accept: application/octet-stream}; the {@code Posekit-Layout} header then says what the floats are.
 */
@RestController
@RequestMapping("/api/v1/assets/{id}")
class SamplingController {

    static final String LAYOUT_HEADER = "Posekit-Layout";

    private final AssetRepository assets;

    SamplingController(AssetRepository assets) {
        this.assets = assets;
    }

    @GetMapping(path = "/pose", produces = MediaType.APPLICATION_JSON_VALUE)
    Object pose(@PathVariable String id, @RequestParam(required = false) String clip,
            @RequestParam(required = false) String time, @RequestParam(required = false) String loop,
            @RequestParam(required = false) String space) {
        Model model = Assets.require(assets, id).model();
        if (space != null && !space.isEmpty() && !space.equals("local") && !space.equals("model")) {
            throw ApiException.badRequest("Invalid space", "space '" + space + "' is not one of local, model");
        }
        Sampling s = Sampling.parse(model, clip, time, loop);
        Pose pose = s.evaluate(model);
        Rig rig = model.rig();
        int n = rig.nodeCount();
        if ("model".equals(space)) {
            List<PoseResponses.ModelNode> nodes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nodes.add(new PoseResponses.ModelNode(rig.name(i), slice(pose.modelMatrices(), 16 * i, 16)));
            }
            return new PoseResponses.ModelPose(s.clipName(), s.time(), s.loop().wireName(), s.localTime(), "model", nodes);
        }
        LocalPose local = pose.local();
        List<PoseResponses.LocalNode> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(new PoseResponses.LocalNode(rig.name(i), slice(local.translations(), 3 * i, 3),
                    slice(local.rotations(), 4 * i, 4), slice(local.scales(), 3 * i, 3)));
        }
        return new PoseResponses.LocalPose(s.clipName(), s.time(), s.loop().wireName(), s.localTime(), "local", nodes);
    }

    @GetMapping(path = "/skins/{skin}/matrices",
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    ResponseEntity<?> skinMatrices(@PathVariable String id, @PathVariable("skin") String skinParam,
            @RequestParam(required = false) String clip, @RequestParam(required = false) String time,
            @RequestParam(required = false) String loop,
            @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        Model model = Assets.require(assets, id).model();
        int skinIndex = index(skinParam, model.skins().size(), "skin");
        Sampling s = Sampling.parse(model, clip, time, loop);
        Skin skin = model.skins().get(skinIndex);
        float[] matrices = MeshPoser.skinningMatrices(skin, s.evaluate(model).modelMatrices());
        if (Negotiation.wantsBinary(accept)) {
            return binary(matrices, "matrix:" + skin.jointCount() + "x16");
        }
        List<String> joints = new ArrayList<>(skin.jointCount());
        List<float[]> list = new ArrayList<>(skin.jointCount());
        for (int k = 0; k < skin.jointCount(); k++) {
            joints.add(model.rig().name(skin.jointNode(k)));
            list.add(slice(matrices, 16 * k, 16));
        }
        return json(new PoseResponses.SkinMatrices(skinIndex, s.clipName(), s.time(), s.loop().wireName(),
                s.localTime(), joints, list));
    }

    @GetMapping(path = "/meshes/{mesh}", produces = MediaType.APPLICATION_JSON_VALUE)
    MeshResponses.Geometry geometry(@PathVariable String id, @PathVariable("mesh") String meshParam) {
        Model model = Assets.require(assets, id).model();
        int meshIndex = index(meshParam, model.meshes().size(), "mesh");
        MeshInstance mesh = model.meshes().get(meshIndex);
        List<MeshResponses.GeometryPrimitive> prims = new ArrayList<>();
        for (Primitive p : mesh.primitives()) {
            prims.add(new MeshResponses.GeometryPrimitive(p.mode().wireName(), p.vertexCount(), p.positions(),
                    p.normals(), p.tangents(), jointSets(p), weightSets(p), p.indices()));
        }
        return new MeshResponses.Geometry(meshIndex, mesh.name(), mesh.skinned() ? mesh.skin() : null, prims);
    }

    @GetMapping(path = "/meshes/{mesh}/skinned",
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    ResponseEntity<?> skinned(@PathVariable String id, @PathVariable("mesh") String meshParam,
            @RequestParam(required = false) String clip, @RequestParam(required = false) String time,
            @RequestParam(required = false) String loop, @RequestParam(required = false) String attributes,
            @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        Model model = Assets.require(assets, id).model();
        int meshIndex = index(meshParam, model.meshes().size(), "mesh");
        Set<VertexAttribute> wanted = attributes(attributes);
        Sampling s = Sampling.parse(model, clip, time, loop);
        MeshInstance mesh = model.meshes().get(meshIndex);
        Pose pose = s.evaluate(model);
        float[] skinning = mesh.skinned()
                ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
        List<PosedPrimitive> posed = MeshPoser.pose(mesh, skinning, pose.modelMatrices(), wanted);
        if (Negotiation.wantsBinary(accept)) {
            return skinnedBinary(posed);
        }
        List<MeshResponses.SkinnedPrimitive> prims = posed.stream()
                .map(p -> new MeshResponses.SkinnedPrimitive(p.vertexCount(), p.positions(), p.normals(), p.tangents()))
                .toList();
        return json(new MeshResponses.Skinned(meshIndex, s.clipName(), s.time(), s.loop().wireName(), s.localTime(),
                prims));
    }

    private static ResponseEntity<byte[]> skinnedBinary(List<PosedPrimitive> posed) {
        int floats = 0;
        StringBuilder layout = new StringBuilder();
        for (PosedPrimitive p : posed) {
            if (!layout.isEmpty()) {
                layout.append(';');
            }
            List<String> parts = new ArrayList<>();
            if (p.positions() != null) {
                floats += p.positions().length;
                parts.add("position:" + p.vertexCount() + "x3");
            }
            if (p.normals() != null) {
                floats += p.normals().length;
                parts.add("normal:" + p.vertexCount() + "x3");
            }
            if (p.tangents() != null) {
                floats += p.tangents().length;
                parts.add("tangent:" + p.vertexCount() + "x4");
            }
            layout.append(String.join(",", parts));
        }
        float[] all = new float[floats];
        int o = 0;
        for (PosedPrimitive p : posed) {
            for (float[] a : new float[][] {p.positions(), p.normals(), p.tangents()}) {
                if (a != null) {
                    System.arraycopy(a, 0, all, o, a.length);
                    o += a.length;
                }
            }
        }
        return binary(all, layout.toString());
    }

    private static ResponseEntity<byte[]> binary(float[] floats, String layout) {
        ByteBuffer buf = ByteBuffer.allocate(4 * floats.length).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(floats);
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(LAYOUT_HEADER, layout)
                .body(buf.array());
    }

    private static ResponseEntity<Object> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static Set<VertexAttribute> attributes(String param) {
        if (param == null || param.isBlank()) {
            return EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL);
        }
        Set<VertexAttribute> out = EnumSet.noneOf(VertexAttribute.class);
        for (String raw : param.split(",")) {
            String name = raw.strip();
            out.add(VertexAttribute.byWireName(name).orElseThrow(() -> ApiException.badRequest("Invalid attributes",
                    "attribute '" + name + "' is not one of position, normal, tangent")));
        }
        return out;
    }

    private static int index(String param, int count, String what) {
        if (param.isEmpty() || param.length() > 9 || !param.chars().allMatch(Character::isDigit)
                || Integer.parseInt(param) >= count) {
            throw ApiException.notFound("Unknown " + what, what + " '" + param + "' does not exist; the asset has "
                    + count + " " + what + (count == 1 ? "" : what.endsWith("h") ? "es" : "s")
                    + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
        }
        return Integer.parseInt(param);
    }

    private static List<int[]> jointSets(Primitive p) {
        List<int[]> sets = new ArrayList<>(p.influenceSets());
        int n = p.vertexCount();
        int k = p.influencesPerVertex();
        for (int s = 0; s < p.influenceSets(); s++) {
            int[] set = new int[4 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(p.joints(), v * k + 4 * s, set, 4 * v, 4);
            }
            sets.add(set);
        }
        return sets;
    }

    private static List<float[]> weightSets(Primitive p) {
        List<float[]> sets = new ArrayList<>(p.influenceSets());
        int n = p.vertexCount();
        int k = p.influencesPerVertex();
        for (int s = 0; s < p.influenceSets(); s++) {
            float[] set = new float[4 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(p.weights(), v * k + 4 * s, set, 4 * v, 4);
            }
            sets.add(set);
        }
        return sets;
    }

    private static float[] slice(float[] a, int from, int length) {
        return Arrays.copyOfRange(a, from, from + length);
    }
}
