package io.posekit.render;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.ClipTimes;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.BoundsAccumulator;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import io.posekit.skinning.VertexAttribute;

/**
 * A model posed for drawing: every mesh instance posed with {@link MeshPoser} (the skinning the file asks for, morph targets
 * first) into model space, as {@link Surface}s; and the box to frame a clip with.
 */
public final class PosedScene {

    /** Times per second at which a clip is posed to find the box that frames it (plus every key time). */
    public static final double FRAMING_RATE = 30;
    /** The most grid times and key times posed to frame a clip. */
    public static final int FRAMING_TIMES = 256;
    private static final Set<VertexAttribute> DRAWN = EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL);
    private static final Set<VertexAttribute> POSITIONS = EnumSet.of(VertexAttribute.POSITION);

    private PosedScene() {
    }

    /**
     * Every primitive of every mesh instance of {@code model}, posed.
     *
     * @param modelMatrices 16 floats per rig node, column-major (e.g. {@link Pose#modelMatrices()})
     * @param morphWeights the instances' morph weights, or {@code null} for each instance's defaults
     */
    public static List<Surface> surfaces(Model model, float[] modelMatrices, MorphWeights morphWeights) {
        List<Surface> out = new ArrayList<>();
        for (int i = 0; i < model.meshes().size(); i++) {
            MeshInstance mesh = model.meshes().get(i);
            List<PosedPrimitive> posed = MeshPoser.pose(mesh, morphWeights == null ? mesh.morphWeights()
                    : morphWeights.weights(i), skinning(model, mesh, modelMatrices), modelMatrices, DRAWN);
            for (int p = 0; p < posed.size(); p++) {
                out.add(new Surface(mesh.primitives().get(p), posed.get(p)));
            }
        }
        return out;
    }

    /**
     * The axis-aligned box of every mesh vertex over a whole clip: the model posed at every key time and on a
     * {@value #FRAMING_RATE} Hz grid with both ends (as {@link ClipTimes}, at most {@value #FRAMING_TIMES} of each),
     * as {@code {min, max}} (3 floats each), or {@code null} when no vertex is finite. {@code clip} {@code null}: the
     * rest pose alone.
     */
    public static float[][] clipBox(Model model, Clip clip) {
        double[] times = clip == null ? new double[] {0}
                : ClipTimes.of(clip, FRAMING_RATE, FRAMING_TIMES, FRAMING_TIMES);
        BoundsAccumulator box = new BoundsAccumulator();
        for (double t : times) {
            float[] m = Pose.evaluate(model.rig(), clip, t).modelMatrices();
            MorphWeights weights = clip == null ? null : MorphWeights.evaluate(model.meshes(), clip, t);
            addBox(box, model, m, weights);
        }
        return corners(box);
    }

    /** The box of the model posed with {@code modelMatrices} and {@code morphWeights} ({@code null}: defaults). */
    public static float[][] poseBox(Model model, float[] modelMatrices, MorphWeights morphWeights) {
        BoundsAccumulator box = new BoundsAccumulator();
        addBox(box, model, modelMatrices, morphWeights);
        return corners(box);
    }

    private static void addBox(BoundsAccumulator box, Model model, float[] m, MorphWeights weights) {
        for (int i = 0; i < model.meshes().size(); i++) {
            MeshInstance mesh = model.meshes().get(i);
            for (PosedPrimitive p : MeshPoser.pose(mesh, weights == null ? mesh.morphWeights() : weights.weights(i),
                    skinning(model, mesh, m), m, POSITIONS)) {
                box.addToBox(p.positions(), 0, p.vertexCount());
            }
        }
    }

    private static float[][] corners(BoundsAccumulator box) {
        var b = box.bounds();
        return b == null ? null : new float[][] {b.min(), b.max()};
    }

    private static float[] skinning(Model model, MeshInstance mesh, float[] modelMatrices) {
        return mesh.skinned() ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), modelMatrices) : null;
    }
}
