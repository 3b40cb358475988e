package io.posekit.asset;

import io.posekit.clip.Clip;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
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
 * <p>Morph-weight tracks are not bound (they drive the source file's meshes). A bound clip keeps its name, made unique among the target's clips by a {@code " (2)"}, {@code " (3)"}… suffix,
 * and its duration. A source clip none of whose tracks binds is left out and reported as skipped.
 */
public final class ClipBinding {

    /** The most names listed in a report's {@code notAnimated}; the count says how many there are. */
    public static final int MAX_LISTED = 50;

    private ClipBinding() {
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
     */
    public record ClipReport(String name, String sourceName, int tracks, List<String> unmatched, List<String> notAnimated,
            int notAnimatedCount) {
    }

    /**
     * The result of a binding.
     *
     * @param model the target with the bound clips appended
     * @param clips a report per bound clip
     * @param skipped names of source clips that bound no track
     */
    public record Bound(Model model, List<ClipReport> clips, List<String> skipped) {
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
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < rig.nodeCount(); i++) {
            if (rig.name(i) != null) {
                byName.putIfAbsent(rig.name(i), i);
            }
        }
        int[] remap = new int[source.rig().nodeCount()];
        for (int s = 0; s < remap.length; s++) {
            String name = source.rig().name(s);
            remap[s] = name == null ? -1 : byName.getOrDefault(name, -1);
        }
        Set<String> names = new HashSet<>();
        target.clips().forEach(c -> names.add(c.name()));
        List<Clip> clips = new ArrayList<>(target.clips());
        List<ClipReport> reports = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int[] joints = joints(target);
        for (Clip clip : source.clips()) {
            Set<String> unmatched = new LinkedHashSet<>();
            boolean[] animated = new boolean[rig.nodeCount()];
            List<Track> tracks = new ArrayList<>();
            for (Track t : clip.tracks()) {
                if (t.property() == io.posekit.clip.TrackProperty.WEIGHTS) {
                    continue; // morph weights belong to the source's meshes, which the target does not have
                }
                int node = remap[t.node()];
                if (node < 0) {
                    unmatched.add(nodeName(source.rig(), t.node()));
                } else {
                    tracks.add(t.withNode(node));
                    animated[node] = true;
                }
            }
            List<NodeTransformTrack> stacks = new ArrayList<>();
            for (NodeTransformTrack n : clip.nodeTransforms()) {
                int node = remap[n.node()];
                if (node < 0) {
                    unmatched.add(nodeName(source.rig(), n.node()));
                } else {
                    stacks.add(n.withNode(node));
                    animated[node] = true;
                }
            }
            if (tracks.isEmpty() && stacks.isEmpty()) {
                skipped.add(clip.name());
                continue;
            }
            String name = unique(clip.name(), names);
            names.add(name);
            clips.add(new Clip(name, clip.duration(), tracks, stacks));
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
                    notAnimated, count));
        }
        if (reports.isEmpty()) {
            throw ImportException.invalid("no track of the file's clips (" + String.join(", ", skipped.stream()
                    .map(n -> "'" + n + "'").toList()) + ") targets a node named like one of the asset's");
        }
        if (clips.size() > maxClips) {
            throw ImportLimits.exceeded("the combined asset", clips.size(), "clips", maxClips, ImportLimits.CLIPS);
        }
        Model bound = new Model(target.format(), rig, target.skins(), target.meshes(), clips, target.warnings(),
                target.humanoid());
        return new Bound(bound, List.copyOf(reports), List.copyOf(skipped));
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
