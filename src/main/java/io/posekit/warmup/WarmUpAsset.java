package io.posekit.warmup;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.export.AnimatedGltf;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The asset the warm-up drives the service with, built in code: a skinned tube around a chain of
 * {@value #JOINTS} joints, shaped like the assets users send (Fox has 24 joints and 1 728 vertices; this one has
 * {@value #JOINTS} joints and {@value #RINGS} × {@value #SEGMENTS} = 1 728 vertices, 4 influences each, normals,
 * 3 420 triangles) with one clip, {@value #CLIP}, of {@value #DURATION} s: every joint bends on a LINEAR rotation
 * track of {@value #KEYS} keys and the root sways on a translation track.
 *
 * <p>Model space: the chain stands on the origin along +y, {@value #SPACING} m between joints, the tube's radius
 * 0.1 m. Node 0 is the mesh's node (a root with the identity transform), nodes 1 to {@value #JOINTS} the joints, each
 * the child of the one before. Immutable; {@link #glb()} is the GLB that {@link AnimatedGltf} writes of
 * {@link #model()}, the same bytes on every call (an upload of it has the same content id every time).
 */
public final class WarmUpAsset {

    /** Joints of the chain. */
    public static final int JOINTS = 24;
    /** Rings of vertices along the tube. */
    public static final int RINGS = 96;
    /** Vertices of one ring. */
    public static final int SEGMENTS = 18;
    /** The clip's name. */
    public static final String CLIP = "warm-up";
    /** The clip's length, seconds. */
    public static final double DURATION = 2.0;
    /** Keys of each track. */
    public static final int KEYS = 31;
    /** Distance between two joints, metres. */
    public static final float SPACING = 0.25f;

    private static final float RADIUS = 0.1f;
    private static final WarmUpAsset INSTANCE = new WarmUpAsset();

    private final Model model;
    private final byte[] glb;

    private WarmUpAsset() {
        Rig rig = rig();
        model = new Model(AssetFormat.GLTF, rig, List.of(skin()), List.of(new MeshInstance("warm-up tube", 0, 0, 0,
                List.of(tube()), null)), List.of(clip()), List.of());
        glb = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
    }

    /** The one instance (built on first use, a few milliseconds). */
    public static WarmUpAsset get() {
        return INSTANCE;
    }

    /** The asset as posekit's runtime model. */
    public Model model() {
        return model;
    }

    /** The asset as a GLB file (a copy). */
    public byte[] glb() {
        return glb.clone();
    }

    private static Rig rig() {
        int nodes = JOINTS + 1;
        String[] names = new String[nodes];
        int[] parents = new int[nodes];
        int[] source = new int[nodes];
        float[] t = new float[3 * nodes];
        float[] r = new float[4 * nodes];
        float[] s = new float[3 * nodes];
        names[0] = "warm-up tube";
        parents[0] = -1;
        for (int i = 0; i < nodes; i++) {
            source[i] = i;
            r[4 * i + 3] = 1;
            s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = 1;
            if (i > 0) {
                names[i] = "joint " + (i - 1);
                parents[i] = i == 1 ? -1 : i - 1;
                t[3 * i + 1] = i == 1 ? 0 : SPACING;
            }
        }
        return new Rig(names, parents, source, t, r, s);
    }

    /** Joint j stands at y = j × spacing at rest: its inverse bind matrix is the translation back down. */
    private static Skin skin() {
        int[] nodes = new int[JOINTS];
        float[] ibm = new float[16 * JOINTS];
        for (int j = 0; j < JOINTS; j++) {
            nodes[j] = j + 1;
            ibm[16 * j] = ibm[16 * j + 5] = ibm[16 * j + 10] = ibm[16 * j + 15] = 1;
            ibm[16 * j + 13] = -j * SPACING;
        }
        return new Skin("warm-up", nodes, ibm);
    }

    /** Rings from the first joint to the last, each vertex bound to the two joints around its height. */
    private static Primitive tube() {
        int vertices = RINGS * SEGMENTS;
        float[] positions = new float[3 * vertices];
        float[] normals = new float[3 * vertices];
        int[] joints = new int[4 * vertices];
        float[] weights = new float[4 * vertices];
        float height = (JOINTS - 1) * SPACING;
        for (int ring = 0; ring < RINGS; ring++) {
            float y = height * ring / (RINGS - 1);
            float along = y / SPACING;
            int below = Math.min((int) along, JOINTS - 2);
            float share = Math.min(1, along - below);
            for (int k = 0; k < SEGMENTS; k++) {
                int v = ring * SEGMENTS + k;
                double angle = 2 * Math.PI * k / SEGMENTS;
                float cos = (float) Math.cos(angle);
                float sin = (float) Math.sin(angle);
                positions[3 * v] = RADIUS * cos;
                positions[3 * v + 1] = y;
                positions[3 * v + 2] = RADIUS * sin;
                normals[3 * v] = cos;
                normals[3 * v + 2] = sin;
                joints[4 * v] = below;
                joints[4 * v + 1] = below + 1;
                weights[4 * v] = 1 - share;
                weights[4 * v + 1] = share;
            }
        }
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"),
                positions, normals, null, tubeIndices(RINGS, SEGMENTS), 4, joints, weights);
    }

    /**
     * The triangles of an open tube whose vertices are {@code rings} rings of {@code segments} each, ring after ring:
     * two per quad between neighbouring rings, counter-clockwise seen from outside the tube.
     */
    public static int[] tubeIndices(int rings, int segments) {
        int[] indices = new int[6 * (rings - 1) * segments];
        int i = 0;
        for (int ring = 0; ring + 1 < rings; ring++) {
            for (int k = 0; k < segments; k++) {
                int a = ring * segments + k;
                int b = ring * segments + (k + 1) % segments;
                int c = a + segments;
                int d = b + segments;
                indices[i++] = a;
                indices[i++] = c;
                indices[i++] = b;
                indices[i++] = b;
                indices[i++] = c;
                indices[i++] = d;
            }
        }
        return indices;
    }

    /** Each joint bends about z and x by a phase-shifted sine; the root sways along x. */
    private static Clip clip() {
        float[] times = new float[KEYS];
        for (int k = 0; k < KEYS; k++) {
            times[k] = (float) (DURATION * k / (KEYS - 1));
        }
        List<Track> tracks = new ArrayList<>();
        for (int j = 0; j < JOINTS; j++) {
            float[] rotations = new float[4 * KEYS];
            for (int k = 0; k < KEYS; k++) {
                double phase = 2 * Math.PI * times[k] / DURATION + 0.4 * j;
                double bend = 0.25 * Math.sin(phase);
                double twist = 0.1 * Math.cos(phase);
                // the product of a rotation about x by twist and one about z by bend, as [x, y, z, w]
                double cx = Math.cos(twist / 2), sx = Math.sin(twist / 2);
                double cz = Math.cos(bend / 2), sz = Math.sin(bend / 2);
                rotations[4 * k] = (float) (sx * cz);
                rotations[4 * k + 1] = (float) (-sx * sz);
                rotations[4 * k + 2] = (float) (cx * sz);
                rotations[4 * k + 3] = (float) (cx * cz);
            }
            tracks.add(new Track(j + 1, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times.clone(), rotations));
        }
        float[] sway = new float[3 * KEYS];
        for (int k = 0; k < KEYS; k++) {
            sway[3 * k] = (float) (0.2 * Math.sin(2 * Math.PI * times[k] / DURATION));
        }
        tracks.add(new Track(1, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times.clone(), sway));
        return Clip.of(CLIP, tracks);
    }
}
