package io.posekit.retarget;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.clip.Clip;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * VRM avatars and animations generated in code from {@link Skeletons#humanoid()} (a Mixamo-named T-pose, y up, facing
 * +Z): the same rig with node names no name rule can pair ({@code bone_00}…), and the humanoid bone map in the VRM
 * 1.0 ({@code VRMC_vrm}), VRM 0.x ({@code VRM}) or VRM animation ({@code VRMC_vrm_animation}) extension. The VRM 0.x
 * avatar is the rig turned 180° about Y (it faces −Z, as VRM 0.x models do); the others face +Z. Each is a GLB that
 * goes through posekit's glTF importer.
 */
public final class VrmAvatars {

    /** Mixamo joint names of {@link Skeletons#humanoid()} and the VRM humanoid bones they are. */
    static final Map<String, String> BONES = new LinkedHashMap<>();

    static {
        String[][] pairs = {{"Hips", "hips"}, {"Spine", "spine"}, {"Spine1", "chest"}, {"Neck", "neck"},
            {"Head", "head"}, {"LeftShoulder", "leftShoulder"}, {"LeftArm", "leftUpperArm"},
            {"LeftForeArm", "leftLowerArm"}, {"LeftHand", "leftHand"}, {"RightShoulder", "rightShoulder"},
            {"RightArm", "rightUpperArm"}, {"RightForeArm", "rightLowerArm"}, {"RightHand", "rightHand"},
            {"LeftUpLeg", "leftUpperLeg"}, {"LeftLeg", "leftLowerLeg"}, {"LeftFoot", "leftFoot"},
            {"LeftToeBase", "leftToes"}, {"RightUpLeg", "rightUpperLeg"}, {"RightLeg", "rightLowerLeg"},
            {"RightFoot", "rightFoot"}, {"RightToeBase", "rightToes"}};
        for (String[] p : pairs) {
            BONES.put(p[0], p[1]);
        }
    }

    /** VRM 0.x avatar, VRM 1.0 avatar, VRM animation. */
    public enum Kind { VRM0, VRM1, VRMA }

    private VrmAvatars() {
    }

    /** The node name of rig joint {@code i} in the generated files. */
    public static String nodeName(int i) {
        return String.format("bone_%02d", i);
    }

    /**
     * A GLB of {@code kind} from {@link Skeletons#humanoid()}; a VRM 0.x avatar turned 180° about Y. {@code clip}
     * (tracks on the humanoid rig's node indices, LINEAR rotations and translations), when not {@code null}, becomes
     * animation {@code clip.name()} (turned as well for VRM 0.x).
     */
    public static byte[] glb(Kind kind, Clip clip) {
        return glb(kind, clip, VrmAvatars::nodeName, Map.of(), false);
    }

    /** The name of the extra, non-humanoid node of {@link #glb(Kind, Clip, IntFunction, Map, boolean)}. */
    public static final String HAIR = "Hair";

    /**
     * {@link #glb(Kind, Clip)} with rig joint i named {@code names.apply(i)}, the rest rotations of
     * {@code restRotations} (joint index → {@code [x, y, z, w]}, turned as well for VRM 0.x; the others identity) and,
     * when {@code hair}, an extra node {@link #HAIR} outside the humanoid map: a child of the head 0.15 above it, rig
     * index {@code Skeletons.humanoid().nodeCount()} for {@code clip}'s tracks.
     */
    public static byte[] glb(Kind kind, Clip clip, IntFunction<String> names, Map<Integer, float[]> restRotations,
            boolean hair) {
        Rig rig = Skeletons.humanoid();
        boolean turn = kind == Kind.VRM0;
        GltfBuilder b = new GltfBuilder().extensionsUsed(kind == Kind.VRM0 ? "VRM" : kind == Kind.VRM1 ? "VRMC_vrm"
                : "VRMC_vrm_animation");
        int n = rig.nodeCount();
        int[] index = new int[n + (hair ? 1 : 0)];
        for (int i = 0; i < n; i++) {
            float[] t = rig.restTranslations();
            // the whole rig turned: a root's translation turns; children's local offsets turn with their parents'
            // identity rest rotations, so every offset turns
            GltfBuilder.NodeBuilder node = b.node(names.apply(i)).translation(turn ? -t[3 * i] : t[3 * i],
                    t[3 * i + 1], turn ? -t[3 * i + 2] : t[3 * i + 2]);
            float[] r = restRotations.get(i);
            if (r != null) {
                node.rotation(turn ? -r[0] : r[0], r[1], turn ? -r[2] : r[2], r[3]);
            }
            index[i] = node.index();
        }
        if (hair) {
            index[n] = b.node(HAIR).translation(0, 0.15f, 0).index();
        }
        for (int i = 0; i < n; i++) {
            List<Integer> children = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                if (rig.parent(j) == i) {
                    children.add(index[j]);
                }
            }
            if (hair && rig.name(i).equals("Head")) {
                children.add(index[n]);
            }
            if (!children.isEmpty()) {
                ArrayNode c = ((ObjectNode) b.json().get("nodes").get(index[i])).putArray("children");
                children.forEach(c::add);
            }
        }
        b.addScene("Scene", index[0]);
        b.defaultScene(0);
        if (clip != null) {
            GltfBuilder.AnimationBuilder a = b.animation(clip.name());
            for (Track track : clip.tracks()) {
                float[] v = track.values().clone();
                if (turn) {
                    turn(v, track.property());
                }
                a.track(index[track.node()], track.property() == TrackProperty.ROTATION ? "rotation" : "translation",
                        "LINEAR", track.times(), v);
            }
        }
        ObjectNode extensions = b.json().putObject("extensions");
        if (kind == Kind.VRM0) {
            ObjectNode vrm = extensions.putObject("VRM");
            vrm.put("exporterVersion", "posekit-test");
            ArrayNode bones = vrm.putObject("humanoid").putArray("humanBones");
            for (int i = 0; i < n; i++) {
                bones.addObject().put("bone", BONES.get(rig.name(i))).put("node", index[i]);
            }
        } else {
            ObjectNode ext = extensions.putObject(kind == Kind.VRM1 ? "VRMC_vrm" : "VRMC_vrm_animation");
            ext.put("specVersion", "1.0");
            ObjectNode bones = ext.putObject("humanoid").putObject("humanBones");
            for (int i = 0; i < n; i++) {
                bones.putObject(BONES.get(rig.name(i))).put("node", index[i]);
            }
        }
        return b.toGlb();
    }

    /**
     * Keys turned 180° about Y: rotations {@code R · q · R⁻¹} (the model is turned, so a local rotation about x
     * or z changes sign), translations {@code R · t}.
     */
    private static void turn(float[] v, TrackProperty property) {
        if (property == TrackProperty.ROTATION) {
            for (int k = 0; k < v.length; k += 4) {
                v[k] = -v[k];
                v[k + 2] = -v[k + 2];
            }
        } else {
            for (int k = 0; k < v.length; k += 3) {
                v[k] = -v[k];
                v[k + 2] = -v[k + 2];
            }
        }
    }

    /**
     * On {@link Skeletons#humanoid()}: over one second the hips turn 90° to the left (about +Y) and walk 0.5 m
     * forward (+Z), the spine leans forward 30° (about +X: the head towards +Z), the left arm drops 45° (about −Z).
     */
    public static Clip turnAndWalk() {
        float s = (float) Math.sqrt(0.5);
        float[] times = {0, 1};
        float sin15 = (float) Math.sin(Math.toRadians(15));
        float cos15 = (float) Math.cos(Math.toRadians(15));
        float sin225 = (float) Math.sin(Math.toRadians(-22.5));
        float cos225 = (float) Math.cos(Math.toRadians(-22.5));
        List<Track> tracks = new ArrayList<>();
        tracks.add(new Track(0, TrackProperty.ROTATION, io.posekit.clip.Interpolation.LINEAR, 4, times,
                new float[] {0, 0, 0, 1, 0, s, 0, s}));
        tracks.add(new Track(0, TrackProperty.TRANSLATION, io.posekit.clip.Interpolation.LINEAR, 3, times,
                new float[] {0, 1, 0, 0, 1, 0.5f}));
        tracks.add(new Track(1, TrackProperty.ROTATION, io.posekit.clip.Interpolation.LINEAR, 4, times,
                new float[] {0, 0, 0, 1, sin15, 0, 0, cos15}));
        tracks.add(new Track(6, TrackProperty.ROTATION, io.posekit.clip.Interpolation.LINEAR, 4, times,
                new float[] {0, 0, 0, 1, 0, 0, sin225, cos225}));
        return Clip.of("TurnAndWalk", tracks);
    }

    static Model importGlb(String name, byte[] glb) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile(name, glb))).model();
    }

    static Model avatar(Kind kind) {
        return importGlb(kind == Kind.VRMA ? "clip.vrma" : "avatar.vrm", glb(kind, null));
    }
}
