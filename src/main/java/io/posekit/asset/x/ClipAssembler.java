package io.posekit.asset.x;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns AnimationSets into clips: one clip per set, named after it (unnamed sets are named {@code animation_{i}} by
 * the builder), one LINEAR track per key type of each Animation, on the frame its {@code { name }} reference names
 * (or, without a reference, the frame its own name names). Key times are ticks divided by AnimTicksPerSecond, which
 * is 25 when the file does not say: the rate Irrlicht plays such a file at (its skinned mesh's default of 25 frames
 * per second, which only an AnimTicksPerSecond overrides) and assimp's consumers assume (assimp leaves
 * {@code mTicksPerSecond} 0, "25 if not specified"). Files without it are the older exporters' that key by frame
 * number: Irrlicht's own dwarf.x keys its walk 0…55, a 2.2 s walk at 25; the DirectX SDK's 4800 made it 11 ms.
 *
 * <p>Values, in right-handed space ({@link Handedness}): rotation keys {@code (w, x, y, z)} become
 * {@code [x, y, −z, w]}, normalised; positions {@code (x, y, −z)}; scales as stored; matrix keys (types 3 and 4) are mirrored and
 * decomposed into translation, rotation and scale keys (an Animation with matrix keys uses only those, as assimp
 * does). Sets that produce no track are skipped with a warning.
 */
final class ClipAssembler {

    /** Ticks per second when the file has no AnimTicksPerSecond (Irrlicht's and assimp's consumers' default). */
    static final long DEFAULT_TICKS_PER_SECOND = 25;

    private final XDocument doc;
    private final Map<String, Integer> frameByName;
    private final SceneAssembler scene;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;

    ClipAssembler(XDocument doc, SceneAssembler scene, DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.scene = scene;
        this.frameByName = scene.frameByName();
        this.budget = budget;
        this.warnings = warnings;
    }

    List<ImportScene.Clip> clips() {
        List<ImportScene.Clip> clips = new ArrayList<>();
        if (doc.animationSets.isEmpty()) {
            return clips;
        }
        long ticksPerSecond = doc.ticksPerSecond;
        if (ticksPerSecond <= 0) {
            ticksPerSecond = DEFAULT_TICKS_PER_SECOND;
            warnings.add("the file has no AnimTicksPerSecond; key times are read as frames at " + DEFAULT_TICKS_PER_SECOND
                    + " per second (the rate Irrlicht and assimp's consumers play such files at)");
        }
        for (XDocument.AnimationSet set : doc.animationSets) {
            List<Track> tracks = new ArrayList<>();
            for (XDocument.Animation a : set.animations()) {
                budget.checkTime();
                tracks(a, ticksPerSecond, tracks);
            }
            if (tracks.isEmpty()) {
                warnings.add(set.where() + " has no usable animation keys; it is skipped");
                continue;
            }
            String name = set.name() == null || set.name().isEmpty() ? null : set.name();
            clips.add(new ImportScene.Clip(name, tracks));
        }
        return clips;
    }

    private void tracks(XDocument.Animation a, long ticksPerSecond, List<Track> out) {
        String target = a.target;
        if (target == null) {
            if (a.name != null && frameByName.containsKey(a.name)) {
                target = a.name;
                warnings.add(a.where + " has no frame reference; it animates the frame of its own name");
            } else {
                if (!a.keys.isEmpty()) {
                    warnings.add(a.where + " has no frame reference ('{ FrameName }'); it is skipped");
                }
                return;
            }
        }
        Integer node = frameByName.get(target);
        if (node == null) {
            warnings.add(a.where + " animates " + XTokens.quote(target) + ", which is not a Frame; it is skipped");
            return;
        }
        XDocument.Keys[] byType = new XDocument.Keys[3];
        XDocument.Keys matrix = null;
        for (XDocument.Keys k : a.keys) {
            if (k.ticks().length == 0) {
                continue;
            }
            if (k.isMatrix()) {
                if (matrix != null) {
                    warnings.add(a.where + " has several matrix AnimationKeys; the last one is used");
                }
                matrix = k;
            } else {
                if (byType[k.type()] != null) {
                    warnings.add(a.where + " has several AnimationKeys of type " + k.type() + "; the last one is used");
                }
                byType[k.type()] = k;
            }
        }
        if (matrix != null) {
            if (byType[0] != null || byType[1] != null || byType[2] != null) {
                warnings.add(a.where + " has matrix keys and rotation, scale or position keys; only the matrix keys"
                        + " are used");
            }
            matrixTracks(matrix, node, ticksPerSecond, out);
            return;
        }
        if (byType[XDocument.Keys.POSITION] != null) {
            XDocument.Keys k = byType[XDocument.Keys.POSITION];
            float[] v = new float[k.values().length];
            for (int i = 0; i < v.length; i += 3) {
                Handedness.vector(k.values(), i, v, i);
            }
            out.add(new Track(node, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times(k, ticksPerSecond), v));
        }
        if (byType[XDocument.Keys.ROTATION] != null) {
            XDocument.Keys k = byType[XDocument.Keys.ROTATION];
            float[] v = new float[k.values().length];
            int zero = 0;
            for (int i = 0; i < v.length; i += 4) {
                if (!Handedness.rotation(k.values(), i, v, i)) {
                    zero++;
                }
            }
            if (zero > 0) {
                warnings.add(k.where() + ": " + zero + " rotation keys are zero quaternions; the identity is used");
            }
            out.add(new Track(node, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times(k, ticksPerSecond), v));
        }
        if (byType[XDocument.Keys.SCALE] != null) {
            XDocument.Keys k = byType[XDocument.Keys.SCALE];
            out.add(new Track(node, TrackProperty.SCALE, Interpolation.LINEAR, 3, times(k, ticksPerSecond), k.values()));
        }
    }

    private void matrixTracks(XDocument.Keys k, int node, long ticksPerSecond, List<Track> out) {
        int n = k.ticks().length;
        budget.charge(10L * n, 4, k.where() + " decomposed keys");
        float[] t = new float[3 * n];
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        float[] tk = new float[3];
        float[] rk = new float[4];
        float[] sk = new float[3];
        for (int i = 0; i < n; i++) {
            budget.checkTime();
            scene.decompose(Handedness.matrix(k.values(), 16 * i), tk, rk, sk, k.where() + ": a key matrix");
            System.arraycopy(tk, 0, t, 3 * i, 3);
            System.arraycopy(rk, 0, r, 4 * i, 4);
            System.arraycopy(sk, 0, s, 3 * i, 3);
        }
        float[] times = times(k, ticksPerSecond);
        out.add(new Track(node, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, t));
        out.add(new Track(node, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, r));
        out.add(new Track(node, TrackProperty.SCALE, Interpolation.LINEAR, 3, times, s));
    }

    private static float[] times(XDocument.Keys k, long ticksPerSecond) {
        float[] times = new float[k.ticks().length];
        for (int i = 0; i < times.length; i++) {
            times[i] = (float) (k.ticks()[i] / (double) ticksPerSecond);
        }
        return times;
    }
}
