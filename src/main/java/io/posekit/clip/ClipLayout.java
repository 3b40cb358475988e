package io.posekit.clip;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A clip's translation, rotation and scale tracks compiled for sampling a whole pose at once, the way
 * ozz-animation's SoA sampling job and ACL's pose decompression lay a clip out: tracks are grouped by time base
 * (the same key times, whether the same array or equal ones) and, within it, by property and interpolation; each
 * {@link Group} keeps the values of all its tracks key-major in one flat array (every rotation of key 0, then
 * every rotation of key 1, …), so one located key and one segment fraction drive one loop over every track of the
 * group, reading two contiguous runs of memory. LINEAR rotation groups go one step further, as ozz's SoA tracks do:
 * within a key, the x of every track, then every y, z and w ({@link Group#componentMajor()}), so a vector kernel
 * loads the same component of several tracks in one instruction. Translation and scale tracks whose keys are all one value (ACL's
 * constant tracks: a third of a typical export's) keep that value alone, in a {@link #constantGroup}, which needs
 * neither a key nor a fraction.
 *
 * <p>Also what sampling needs to know about the clip that does not change from run to run: whether its tracks
 * are well formed ({@link #wellFormed()}) and the range of nodes it drives ({@link #minNode()},
 * {@link #maxNode()}), so a sampling job checks its inputs in O(1); and, per property, which nodes no track
 * drives ({@link #restRuns}), so only those need the rest pose.
 *
 * <p>When two tracks drive the same property of the same node, the later one in the clip's track list is kept
 * (sampling them in order would overwrite the earlier one). {@code WEIGHTS} tracks are not compiled. A group of one
 * track shares the track's own values array (its layout is already key-major), so only groups of two or more
 * tracks cost memory: one copy of their values, a constant track one value ({@link #footprintBytes()}).
 *
 * <p>Immutable; the arrays are shared storage that callers must not modify. Built by {@link Clip#layout()}.
 */
public final class ClipLayout {

    /**
     * Tracks of one property and interpolation that share one time base, values key-major.
     *
     * @param timeBase index of the group's key times, {@link #times(int)}
     * @param property {@code TRANSLATION}, {@code ROTATION} or {@code SCALE}
     * @param interpolation the tracks' interpolation
     * @param components floats per value: 3, or 4 for rotations
     * @param nodes the node each track drives, one per track, distinct
     * @param values key k of track i at {@code (k · nodes.length + i) · stride()}: {@code components} floats, or
     *     {@code 3 × components} (in-tangent, value, out-tangent) for {@code CUBICSPLINE}; except when
     *     {@link #componentMajor()}: component c of key k of track i at {@code (4k + c) · nodes.length + i}
     */
    public record Group(int timeBase, TrackProperty property, Interpolation interpolation, int components,
            int[] nodes, float[] values) {

        /** Number of tracks. */
        public int count() {
            return nodes.length;
        }

        /** Floats per key per track. */
        public int stride() {
            return interpolation == Interpolation.CUBICSPLINE ? 3 * components : components;
        }

        /**
         * Whether the values are component-major within a key (LINEAR rotations): every track's x, then every y, z,
         * w. For a single track this is the same order as key-major.
         */
        public boolean componentMajor() {
            return componentMajor(property, interpolation);
        }

        /**
         * Where float {@code c} ({@code 0 ≤ c < stride()}) of key {@code k} of track {@code i} is in {@link #values()},
         * whichever the order.
         */
        public int index(int k, int i, int c) {
            int count = nodes.length;
            int stride = stride();
            return componentMajor() ? (k * stride + c) * count + i : (k * count + i) * stride + c;
        }

        static boolean componentMajor(TrackProperty property, Interpolation interpolation) {
            return property == TrackProperty.ROTATION && interpolation == Interpolation.LINEAR;
        }
    }

    private static final int PROPERTIES = 3; // TRANSLATION, ROTATION, SCALE: the TrackProperty ordinals 0..2
    private static final int NEGATIVE_ZERO = Float.floatToRawIntBits(-0f);

    private final float[][] times;
    private final Group[] groups;
    private final int[] firstGroup;
    private final Group[] constants;
    private final boolean wellFormed;
    private final int minNode;
    private final int maxNode;
    private final int[][] restRuns;
    private final int[] coveredEnd;
    private final long footprintBytes;

    private ClipLayout(float[][] times, Group[] groups, int[] firstGroup, Group[] constants, boolean wellFormed,
            int minNode, int maxNode, int[][] restRuns, int[] coveredEnd, long footprintBytes) {
        this.times = times;
        this.groups = groups;
        this.firstGroup = firstGroup;
        this.constants = constants;
        this.wellFormed = wellFormed;
        this.minNode = minNode;
        this.maxNode = maxNode;
        this.restRuns = restRuns;
        this.coveredEnd = coveredEnd;
        this.footprintBytes = footprintBytes;
    }

    /** Number of distinct time bases. */
    public int timeBaseCount() {
        return times.length;
    }

    /** The key times of time base {@code b} (seconds, non-decreasing; one of the tracks' own arrays). */
    public float[] times(int b) {
        return times[b];
    }

    /** The groups of time base {@code b} are {@link #group(int) group}{@code (firstGroup(b) .. firstGroup(b + 1) − 1)}. */
    public int firstGroup(int b) {
        return firstGroup[b];
    }

    /** Number of groups, over all time bases. */
    public int groupCount() {
        return groups.length;
    }

    /** Group {@code g}; groups are ordered by time base. */
    public Group group(int g) {
        return groups[g];
    }

    /** Number of constant groups. */
    public int constantGroupCount() {
        return constants.length;
    }

    /**
     * Constant group {@code c}: translation or scale tracks (LINEAR or STEP) whose keys all hold the same value, at
     * most one group per property; {@link Group#timeBase()} is −1 and {@link Group#values()} holds the one value of
     * each track ({@code STEP}, one key). Such a track samples to that value, bit for bit, at any time: its keys
     * are finite and none is −0 (a lerp between two −0 keys gives +0), so {@code a + (a − a)·s} is {@code a}.
     */
    public Group constantGroup(int c) {
        return constants[c];
    }

    /**
     * Whether every translation and scale track has 3 components and every rotation track 4. A layout that is not
     * well formed has no groups.
     */
    public boolean wellFormed() {
        return wellFormed;
    }

    /** The smallest node index of any track (morph weights included) or transform stack; 0 for an empty clip. */
    public int minNode() {
        return minNode;
    }

    /** The largest node index of any track (morph weights included) or transform stack; −1 for an empty clip. */
    public int maxNode() {
        return maxNode;
    }

    /**
     * The nodes below {@link #coveredEnd} that no track of {@code property} drives, as runs {@code [start, end)}:
     * {@code runs[2j] .. runs[2j + 1] − 1}, ascending. Nodes from {@code coveredEnd} on are never driven either.
     *
     * @param property {@code TRANSLATION}, {@code ROTATION} or {@code SCALE}
     */
    public int[] restRuns(TrackProperty property) {
        return restRuns[property.ordinal()];
    }

    /** One past the largest node that a track of {@code property} drives (0 when none does). */
    public int coveredEnd(TrackProperty property) {
        return coveredEnd[property.ordinal()];
    }

    /** Heap bytes the layout adds to its clip (the tracks' own arrays, which it shares, not counted). */
    public long footprintBytes() {
        return footprintBytes;
    }

    /**
     * An upper bound of {@link #footprintBytes()} for these tracks without building the layout: every translation,
     * rotation and scale track's values copied once, plus bookkeeping.
     */
    public static long maxFootprintBytes(List<Track> tracks) {
        long bytes = 256;
        for (Track t : tracks) {
            if (t.property() != TrackProperty.WEIGHTS) {
                bytes += 32 + 4L * t.values().length + 64;
            }
        }
        return bytes;
    }

    /** Compiles {@code tracks} (and notes the nodes of {@code nodeTransforms}); O(values). */
    static ClipLayout of(List<Track> tracks, List<NodeTransformTrack> nodeTransforms) {
        boolean wellFormed = true;
        int minNode = Integer.MAX_VALUE;
        int maxNode = -1;
        for (Track t : tracks) {
            int expected = switch (t.property()) {
                case TRANSLATION, SCALE -> 3;
                case ROTATION -> 4;
                case WEIGHTS -> t.components();
            };
            wellFormed &= t.components() == expected;
            minNode = Math.min(minNode, t.node());
            maxNode = Math.max(maxNode, t.node());
        }
        for (NodeTransformTrack s : nodeTransforms) {
            minNode = Math.min(minNode, s.node());
            maxNode = Math.max(maxNode, s.node());
        }
        if (maxNode < 0 && minNode == Integer.MAX_VALUE) {
            minNode = 0;
        }
        int[][] restRuns = new int[PROPERTIES][0];
        int[] coveredEnd = new int[PROPERTIES];
        if (!wellFormed || minNode < 0) {
            // no rig can sample such a clip (sampling jobs reject it), so there is nothing to compile
            return new ClipLayout(new float[0][], new Group[0], new int[] {0}, new Group[0], wellFormed, minNode,
                    maxNode, restRuns, coveredEnd, 64);
        }
        // the last track of each (property, node) wins, as when tracks are sampled in order; a map rather than
        // arrays indexed by node, as node indices are only checked against a rig when sampling
        Map<Long, Integer> last = new HashMap<>();
        for (int i = 0; i < tracks.size(); i++) {
            Track t = tracks.get(i);
            if (t.property() != TrackProperty.WEIGHTS) {
                last.put(slot(t), i);
            }
        }
        for (int p = 0; p < PROPERTIES; p++) {
            int property = p;
            int[] covered = last.keySet().stream().filter(k -> (int) (k >>> 32) == property)
                    .mapToInt(Long::intValue).sorted().toArray();
            int end = 0;
            List<Integer> runs = new ArrayList<>();
            for (int n : covered) {
                if (n > end) {
                    runs.add(end);
                    runs.add(n);
                }
                end = n + 1;
            }
            coveredEnd[p] = end;
            restRuns[p] = runs.stream().mapToInt(Integer::intValue).toArray();
        }
        // time bases: the same array, or failing that equal contents
        Map<float[], Integer> byArray = new IdentityHashMap<>();
        Map<TimesKey, Integer> byContent = new HashMap<>();
        List<float[]> bases = new ArrayList<>();
        // per time base, the tracks of each (property, interpolation), in clip order
        List<Map<Integer, List<Track>>> members = new ArrayList<>();
        // translations and scales whose keys are all the same value, by property
        Map<Integer, List<Track>> constantMembers = new LinkedHashMap<>();
        for (int i = 0; i < tracks.size(); i++) {
            Track t = tracks.get(i);
            if (t.property() == TrackProperty.WEIGHTS || last.get(slot(t)) != i) {
                continue;
            }
            if (isConstant(t)) {
                constantMembers.computeIfAbsent(t.property().ordinal(), k -> new ArrayList<>()).add(t);
                continue;
            }
            Integer base = byArray.get(t.times());
            if (base == null) {
                base = byContent.computeIfAbsent(new TimesKey(t.times()), k -> {
                    bases.add(k.times());
                    members.add(new LinkedHashMap<>());
                    return bases.size() - 1;
                });
                byArray.put(t.times(), base);
            }
            int kind = t.property().ordinal() * Interpolation.values().length + t.interpolation().ordinal();
            members.get(base).computeIfAbsent(kind, k -> new ArrayList<>()).add(t);
        }
        List<Group> groups = new ArrayList<>();
        int[] firstGroup = new int[bases.size() + 1];
        long bytes = 64 + 16 + 8L * bases.size() + 16 + 4L * firstGroup.length + 3 * (16 + 16);
        for (int b = 0; b < bases.size(); b++) {
            firstGroup[b] = groups.size();
            for (List<Track> kind : members.get(b).values()) {
                Group g = group(b, kind);
                groups.add(g);
                bytes += 48 + 16 + 4L * g.nodes().length;
                if (g.nodes().length > 1) {
                    bytes += 16 + 4L * g.values().length;
                }
            }
        }
        firstGroup[bases.size()] = groups.size();
        List<Group> constants = new ArrayList<>();
        for (List<Track> kind : constantMembers.values()) {
            Group g = constantGroup(kind);
            constants.add(g);
            bytes += 48 + 2 * 16 + 4L * g.nodes().length + 4L * g.values().length;
        }
        for (int[] r : restRuns) {
            bytes += 4L * r.length;
        }
        return new ClipLayout(bases.toArray(new float[0][]), groups.toArray(new Group[0]), firstGroup,
                constants.toArray(new Group[0]), true, minNode, maxNode, restRuns, coveredEnd, bytes);
    }

    /** (property, node) as one key: property ordinal in the high half, node (≥ 0 here) in the low. */
    private static long slot(Track t) {
        return (long) t.property().ordinal() << 32 | t.node();
    }

    /**
     * Whether {@code t} is a LINEAR or STEP translation or scale track whose keys all hold the same value, every
     * component finite and not −0: it then samples to that value at any time (see {@link #constantGroup}).
     */
    private static boolean isConstant(Track t) {
        if (t.property() == TrackProperty.ROTATION || t.interpolation() == Interpolation.CUBICSPLINE) {
            // a slerp between equal keys need not give the key back to the bit; a spline has tangents
            return false;
        }
        float[] v = t.values();
        int n = t.components();
        for (int c = 0; c < n; c++) {
            if (!Float.isFinite(v[c]) || Float.floatToRawIntBits(v[c]) == NEGATIVE_ZERO) {
                return false;
            }
        }
        for (int i = n; i < v.length; i++) {
            if (Float.floatToRawIntBits(v[i]) != Float.floatToRawIntBits(v[i - n])) {
                return false;
            }
        }
        return true;
    }

    /** The constant group of {@code tracks} (same property, all constant): one value per track. */
    private static Group constantGroup(List<Track> tracks) {
        Track first = tracks.getFirst();
        int count = tracks.size();
        int n = first.components();
        int[] nodes = new int[count];
        float[] values = new float[count * n];
        for (int i = 0; i < count; i++) {
            nodes[i] = tracks.get(i).node();
            System.arraycopy(tracks.get(i).values(), 0, values, i * n, n);
        }
        return new Group(-1, first.property(), Interpolation.STEP, n, nodes, values);
    }

    /**
     * The group of {@code tracks} (same times, property and interpolation), values interleaved key-major (and
     * component-major within a key when {@link Group#componentMajor()}).
     */
    private static Group group(int timeBase, List<Track> tracks) {
        Track first = tracks.getFirst();
        int count = tracks.size();
        int[] nodes = new int[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = tracks.get(i).node();
        }
        float[] values;
        if (count == 1) {
            // one track is already key-major
            values = first.values();
        } else {
            int keys = first.keyCount();
            int stride = first.interpolation() == Interpolation.CUBICSPLINE ? 3 * first.components()
                    : first.components();
            // no larger than the tracks' arrays together; exact arithmetic so that an impossible size fails loudly
            values = new float[Math.multiplyExact(keys, Math.multiplyExact(count, stride))];
            boolean byComponent = Group.componentMajor(first.property(), first.interpolation());
            for (int i = 0; i < count; i++) {
                float[] v = tracks.get(i).values();
                for (int k = 0; k < keys; k++) {
                    if (byComponent) {
                        for (int c = 0; c < stride; c++) {
                            values[(k * stride + c) * count + i] = v[k * stride + c];
                        }
                    } else {
                        System.arraycopy(v, k * stride, values, (k * count + i) * stride, stride);
                    }
                }
            }
        }
        return new Group(timeBase, first.property(), first.interpolation(), first.components(), nodes, values);
    }

    /** Key times compared by content (bit patterns, as {@link Arrays#equals(float[], float[])}). */
    private record TimesKey(float[] times) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TimesKey k && Arrays.equals(times, k.times);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(times);
        }
    }
}
