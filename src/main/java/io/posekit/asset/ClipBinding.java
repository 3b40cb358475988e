package io.posekit.asset;

import io.posekit.clip.Clip;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Matrices;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds the clips of an animation file to another asset's rig by node name: each track of the source clip that
 * targets a node named like a node of the target rig is retargeted to that node (the first of that name in parent-first
 * order); tracks of other nodes are dropped and reported. Track values are copied as they are: local TRS of the named
 * node, so the two files must share the skeleton's rest conventions (units, axes, joint orientations), as when a rig
 * and its animations are exported separately. Nothing is retargeted between different skeletons.
 *
 * <p>When both files declare a humanoid bone map ({@link HumanoidMap}: a VRM animation onto a VRM avatar, one
 * avatar's clip onto another), the map binds ({@link Rule#HUMANOID_MAP}): a track of the source's bone
 * {@code leftUpperArm} drives the target's {@code leftUpperArm}, whatever either node is called, as three-vrm's
 * {@code createVRMAnimationClip} binds a VRMA. Source nodes outside its map fall back to names, onto target nodes
 * outside the target's map; a source bone the target's map lacks is unmatched. With maps:
 * <ul>
 * <li>the clip is turned 180° about Y when one side faces −Z (VRM 0.x) and the other +Z (VRM 1.0, VRMA): rotation keys
 * {@code R·q·R⁻¹}, translation keys {@code R·t} (x and z negated; three-vrm does the same for a VRM 0.x avatar);
 * <li>translation keys of humanoid bones are scaled by the ratio of the two hips' rest heights (three-vrm's rule), so
 * the hips move at the avatar's height;
 * <li>copying local keys is only right when each animated humanoid bone and its parent have the same rest orientation
 * in model space on both sides (after the turn); where they do not, binding refuses (invalid, naming the bone), and
 * retargeting, which works from the rest poses, is the way.
 * </ul>
 *
 * <p>Morph-weight tracks are not bound (they drive the source file's meshes). A bound clip keeps its name, made unique among the target's clips by a {@code " (2)"}, {@code " (3)"}… suffix,
 * and its duration. A source clip none of whose tracks binds is left out and reported as skipped.
 */
public final class ClipBinding {

    /** The most names listed in a report's {@code notAnimated}; the count says how many there are. */
    public static final int MAX_LISTED = 50;

    /** Rest orientations farther apart than this (radians) refuse a humanoid binding. */
    static final double REST_TOLERANCE = 1e-3;

    private ClipBinding() {
    }

    /** How a source node came to be bound. */
    public enum Rule {
        /** The same humanoid bone in both files' maps. */
        HUMANOID_MAP,
        /** The same node name. */
        NAME;

        /** The wire name: {@code humanoid_map}, {@code name}. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What happened to one source clip.
     *
     * @param name the bound clip's name in the target
     * @param sourceName its name in the source file
     * @param tracks how many tracks (and transform stacks) were bound
     * @param unmatched names of source nodes with tracks that have no node of that name in the target ({@code #i} for
     *     unnamed node i), in source order
     * @param notAnimated names of target joints (skin joints, or every named node without skins) that the clip does not
     *     animate, at most {@link #MAX_LISTED}
     * @param notAnimatedCount how many there are in all
     * @param byHumanoidMap how many of the bound tracks were bound by the humanoid maps
     * @param byName how many by node name
     */
    public record ClipReport(String name, String sourceName, int tracks, List<String> unmatched, List<String> notAnimated,
            int notAnimatedCount, int byHumanoidMap, int byName) {
    }

    /**
     * The result of a binding.
     *
     * @param model the target with the bound clips appended
     * @param clips a report per bound clip
     * @param skipped names of source clips that bound no track
     * @param rule {@link Rule#HUMANOID_MAP} when both files have a humanoid map (names bind only the nodes outside
     *     it), else {@link Rule#NAME}
     * @param turned whether the clips were turned 180° about Y (one side VRM 0.x, the other not)
     * @param translationScale the factor humanoid bones' translation keys were scaled by (1 without maps)
     */
    public record Bound(Model model, List<ClipReport> clips, List<String> skipped, Rule rule, boolean turned,
            double translationScale) {
    }

    /**
     * Appends the clips of {@code source} to {@code target}, bound by node name.
     *
     * @param maxClips the most clips the result may have
     * @throws ImportException (invalid) when the source has no clip, or no clip binds a track; (too large) past
     *     {@code maxClips}
     */
    public static Bound bind(Model target, Model source, int maxClips) {
        if (source.clips().isEmpty()) {
            throw ImportException.invalid("the file has no clips to add");
        }
        Rig rig = target.rig();
        Rig sourceRig = source.rig();
        HumanoidMap th = target.humanoid();
        HumanoidMap sh = source.humanoid();
        boolean humanoid = th != null && sh != null;
        boolean turned = humanoid && th.facesMinusZ() != sh.facesMinusZ();
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < rig.nodeCount(); i++) {
            if (rig.name(i) != null && !(humanoid && th.boneOf(i) != null)) {
                byName.putIfAbsent(rig.name(i), i);
            }
        }
        int[] remap = new int[sourceRig.nodeCount()];
        Rule[] ruleOf = new Rule[remap.length];
        for (int s = 0; s < remap.length; s++) {
            String bone = humanoid ? sh.boneOf(s) : null;
            if (bone != null) {
                Integer t = th.bones().get(bone);
                remap[s] = t == null ? -1 : t;
                ruleOf[s] = Rule.HUMANOID_MAP;
            } else {
                String name = sourceRig.name(s);
                remap[s] = name == null ? -1 : byName.getOrDefault(name, -1);
                ruleOf[s] = Rule.NAME;
            }
        }
        double scale = 1;
        if (humanoid) {
            double[] sourceWorld = restWorld(sourceRig);
            double[] targetWorld = restWorld(rig);
            checkRests(source, sourceRig, rig, sh, remap, ruleOf, sourceWorld, targetWorld, turned);
            scale = hipsRatio(th, sh, targetWorld, sourceWorld);
        }
        Set<String> names = new HashSet<>();
        target.clips().forEach(c -> names.add(c.name()));
        List<Clip> clips = new ArrayList<>(target.clips());
        List<ClipReport> reports = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int[] joints = joints(target);
        for (Clip clip : source.clips()) {
            Set<String> unmatched = new LinkedHashSet<>();
            int byHumanoidMap = 0;
            int byNodeName = 0;
            boolean[] animated = new boolean[rig.nodeCount()];
            List<Track> tracks = new ArrayList<>();
            for (Track t : clip.tracks()) {
                if (t.property() == TrackProperty.WEIGHTS) {
                    continue; // morph weights belong to the source's meshes, which the target does not have
                }
                int node = remap[t.node()];
                if (node < 0) {
                    unmatched.add(nodeName(source.rig(), t.node()));
                } else {
                    boolean byMap = ruleOf[t.node()] == Rule.HUMANOID_MAP;
                    tracks.add(converted(t, node, turned, byMap ? scale : 1));
                    animated[node] = true;
                    if (byMap) {
                        byHumanoidMap++;
                    } else {
                        byNodeName++;
                    }
                }
            }
            List<NodeTransformTrack> stacks = new ArrayList<>();
            for (NodeTransformTrack n : clip.nodeTransforms()) {
                int node = remap[n.node()];
                if (node < 0) {
                    unmatched.add(nodeName(source.rig(), n.node()));
                } else {
                    stacks.add(n.withNode(node)); // transform stacks come from COLLADA and FBX, never with a map
                    animated[node] = true;
                    byNodeName++;
                }
            }
            if (tracks.isEmpty() && stacks.isEmpty()) {
                skipped.add(clip.name());
                continue;
            }
            String name = unique(clip.name(), names);
            names.add(name);
            clips.add(new Clip(name, clip.duration(), tracks, stacks, clip.sceneStart()));
            List<String> notAnimated = new ArrayList<>();
            int count = 0;
            for (int j : joints) {
                if (!animated[j]) {
                    count++;
                    if (notAnimated.size() < MAX_LISTED) {
                        notAnimated.add(nodeName(rig, j));
                    }
                }
            }
            reports.add(new ClipReport(name, clip.name(), tracks.size() + stacks.size(), List.copyOf(unmatched),
                    notAnimated, count, byHumanoidMap, byNodeName));
        }
        if (reports.isEmpty()) {
            throw ImportException.invalid("no track of the file's clips (" + String.join(", ", skipped.stream()
                    .map(n -> "'" + n + "'").toList()) + ") targets " + (humanoid
                    ? "a humanoid bone of the asset's map or a node named like one of the asset's other nodes"
                    : "a node named like one of the asset's"));
        }
        if (clips.size() > maxClips) {
            throw ImportLimits.exceeded("the combined asset", clips.size(), "clips", maxClips, ImportLimits.CLIPS);
        }
        Model bound = new Model(target.format(), rig, target.skins(), target.meshes(), clips, target.warnings(),
                target.humanoid(), target.space());
        return new Bound(bound, List.copyOf(reports), List.copyOf(skipped), humanoid ? Rule.HUMANOID_MAP : Rule.NAME,
                turned, scale);
    }

    /**
     * A source track on target node {@code node}: turned 180° about Y (x and z of rotations and translations
     * negated: {@code R·q·R⁻¹}, {@code R·t}; linear, so CUBICSPLINE tangents turn the same way) when {@code turn},
     * translations scaled by {@code scale}. Scales are unchanged by the turn.
     */
    private static Track converted(Track t, int node, boolean turn, double scale) {
        TrackProperty p = t.property();
        boolean rotation = p == TrackProperty.ROTATION;
        boolean translation = p == TrackProperty.TRANSLATION;
        if (!(turn && (rotation || translation)) && !(translation && scale != 1)) {
            return t.withNode(node);
        }
        float[] v = t.values().clone();
        int c = t.components();
        for (int k = 0; k + c <= v.length; k += c) {
            if (turn) {
                v[k] = -v[k];
                v[k + 2] = -v[k + 2];
            }
            if (translation && scale != 1) {
                v[k] = (float) (v[k] * scale);
                v[k + 1] = (float) (v[k + 1] * scale);
                v[k + 2] = (float) (v[k + 2] * scale);
            }
        }
        return new Track(node, p, t.interpolation(), c, t.times(), v);
    }

    /** Every node's rest transform in model space: column-major 4×4 doubles, 16 per node. */
    private static double[] restWorld(Rig rig) {
        int n = rig.nodeCount();
        double[] world = new double[16 * n];
        double[] local = new double[16];
        for (int i = 0; i < n; i++) {
            Matrices.composeTrs(rig.restTranslations(), 3 * i, rig.restRotations(), 4 * i, rig.restScales(), 3 * i,
                    local, 0);
            int p = rig.parent(i);
            if (p < 0) {
                System.arraycopy(local, 0, world, 16 * i, 16);
            } else {
                Matrices.multiply(world, 16 * p, local, 0, world, 16 * i);
            }
        }
        return world;
    }

    /** The model-space rest rotation of node {@code i} (identity for −1), turned 180° about Y when {@code turn}. */
    private static float[] worldRotation(double[] world, int i, boolean turn) {
        float[] r = {0, 0, 0, 1};
        if (i >= 0) {
            double[] m = java.util.Arrays.copyOfRange(world, 16 * i, 16 * i + 16);
            float[] t = new float[3];
            float[] s = new float[3];
            Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
        }
        if (turn) {
            r[0] = -r[0];
            r[2] = -r[2];
        }
        return r;
    }

    /**
     * The angle between two rotations, in radians, precise near 0 (from the vector part of {@code a⁻¹·b}, not the
     * arc cosine of their dot product).
     */
    static double angle(float[] a, float[] b) {
        double ax = -a[0], ay = -a[1], az = -a[2], aw = a[3];
        double bx = b[0], by = b[1], bz = b[2], bw = b[3];
        double x = aw * bx + ax * bw + ay * bz - az * by;
        double y = aw * by - ax * bz + ay * bw + az * bx;
        double z = aw * bz + ax * by - ay * bx + az * bw;
        double w = aw * bw - ax * bx - ay * by - az * bz;
        return 2 * Math.atan2(Math.sqrt(x * x + y * y + z * z), Math.abs(w));
    }

    /**
     * Refuses a humanoid binding whose local keys would pose the target wrong: every animated source node bound by
     * the map must have, as its target, the same model-space rest orientation, and so must their parents (the keys
     * are local to the parent), after the turn.
     */
    private static void checkRests(Model source, Rig sourceRig, Rig rig, HumanoidMap sh, int[] remap, Rule[] ruleOf,
            double[] sourceWorld, double[] targetWorld, boolean turned) {
        boolean[] animated = new boolean[remap.length];
        for (Clip clip : source.clips()) {
            for (Track t : clip.tracks()) {
                if (t.property() != TrackProperty.WEIGHTS) {
                    animated[t.node()] = true;
                }
            }
        }
        for (int s = 0; s < remap.length; s++) {
            int t = remap[s];
            if (!animated[s] || t < 0 || ruleOf[s] != Rule.HUMANOID_MAP) {
                continue;
            }
            double node = angle(worldRotation(sourceWorld, s, turned), worldRotation(targetWorld, t, false));
            double parent = angle(worldRotation(sourceWorld, sourceRig.parent(s), turned),
                    worldRotation(targetWorld, rig.parent(t), false));
            if (!(node <= REST_TOLERANCE) || !(parent <= REST_TOLERANCE)) { // NaN (a degenerate rest) refuses too
                boolean own = !(node <= REST_TOLERANCE);
                throw ImportException.invalid(String.format(java.util.Locale.ROOT, "the file's rest pose differs from"
                        + " the asset's at humanoid bone '%s' (%s rest orientations %.2f° apart%s): its keys are local"
                        + " to the file's rest pose, so bound as they are they would pose the asset wrong; retarget the"
                        + " clips instead (upload the file, then POST /api/v1/assets/{id}/retarget with it as the"
                        + " source), which works from both rest poses", sh.boneOf(s), own ? "model-space"
                        : "its parents' model-space", Math.toDegrees(own ? node : parent),
                        sourceRig.name(s) == null ? "" : ", node '" + sourceRig.name(s) + "' → '" + rig.name(t) + "'"));
            }
        }
    }

    /**
     * The target's hips rest height over the source's (model-space y), which humanoid translation keys are scaled
     * by; 1 when either has no hips or the hips are not above the origin.
     */
    private static double hipsRatio(HumanoidMap th, HumanoidMap sh, double[] targetWorld, double[] sourceWorld) {
        Integer t = th.bones().get("hips");
        Integer s = sh.bones().get("hips");
        if (t == null || s == null) {
            return 1;
        }
        double ty = targetWorld[16 * t + 13];
        double sy = sourceWorld[16 * s + 13];
        return ty > 1e-6 && sy > 1e-6 ? ty / sy : 1;
    }

    /** The joints a report checks: every skin joint (each once, parent-first), or every named node without skins. */
    private static int[] joints(Model target) {
        Set<Integer> set = new java.util.TreeSet<>();
        for (Skin s : target.skins()) {
            for (int j : s.jointNodes()) {
                set.add(j);
            }
        }
        if (set.isEmpty()) {
            for (int i = 0; i < target.rig().nodeCount(); i++) {
                if (target.rig().name(i) != null) {
                    set.add(i);
                }
            }
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String nodeName(Rig rig, int i) {
        return rig.name(i) == null ? "#" + i : rig.name(i);
    }

    private static String unique(String name, Set<String> taken) {
        if (!taken.contains(name)) {
            return name;
        }
        for (int k = 2; ; k++) {
            String candidate = name + " (" + k + ")";
            if (!taken.contains(candidate)) {
                return candidate;
            }
        }
    }
}
