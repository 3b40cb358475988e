package io.posekit.export;

import io.posekit.sampling.MorphWeights;
import io.posekit.asset.Model;
import io.posekit.asset.ModelSpace;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Poses a model's mesh instances for {@link GlbWriter}: positions and normals in model space, as {@link MeshPoser} does. */
public final class PosedMeshes {

    private static final Set<VertexAttribute> WANTED = EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL);

    private PosedMeshes() {
    }

    /**
     * The instances {@code meshes} (indices into {@link Model#meshes()}) of {@code model}, posed with
     * {@code modelMatrices} (16 per rig node, e.g. {@code Pose.modelMatrices()}).
     */
    public static List<GlbWriter.PosedMesh> of(Model model, float[] modelMatrices, int... meshes) {
        return of(model, modelMatrices, null, meshes);
    }

    /**
     * The instances {@code meshes} of {@code model}, morphed by {@code morphWeights} ({@code null}: each instance's
     * defaults) and posed with {@code modelMatrices}.
     */
    public static List<GlbWriter.PosedMesh> of(Model model, float[] modelMatrices, MorphWeights morphWeights,
            int... meshes) {
        List<GlbWriter.PosedMesh> out = new ArrayList<>(meshes.length);
        for (int index : meshes) {
            MeshInstance mesh = model.meshes().get(index);
            float[] skinning = mesh.skinned()
                    ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), modelMatrices) : null;
            out.add(new GlbWriter.PosedMesh(mesh.name(), mesh.primitives(),
                    MeshPoser.pose(mesh, morphWeights == null ? mesh.morphWeights() : morphWeights.weights(index), skinning,
                            modelMatrices, WANTED)));
        }
        return out;
    }

    /**
     * {@code meshes} (as {@link #of} makes them: fresh arrays) converted in place from the file's model space to
     * {@code coordinates} by {@code space}: positions {@code C · p}, normals and tangents turned
     * ({@link ModelSpace#convertDirections}, {@link ModelSpace#convertTangents}); nothing for {@link Coordinates#FILE}
     * or a model already in glTF's space.
     *
     * @return {@code meshes}
     */
    public static List<GlbWriter.PosedMesh> convert(List<GlbWriter.PosedMesh> meshes, ModelSpace space,
            Coordinates coordinates) {
        if (!coordinates.converts(space)) {
            return meshes;
        }
        for (GlbWriter.PosedMesh mesh : meshes) {
            convert(mesh.posed(), space);
        }
        return meshes;
    }

    /** Posed primitives converted in place from the file's model space to glTF's ({@link #convert(List, ModelSpace, Coordinates)}). */
    public static void convert(List<PosedPrimitive> posed, ModelSpace space) {
        for (PosedPrimitive p : posed) {
            if (p.positions() != null) {
                space.convertPoints(p.positions());
            }
            if (p.normals() != null) {
                space.convertDirections(p.normals());
            }
            if (p.tangents() != null) {
                space.convertTangents(p.tangents());
            }
        }
    }

    /** Every mesh instance of {@code model}, posed. */
    public static List<GlbWriter.PosedMesh> all(Model model, float[] modelMatrices) {
        int[] all = new int[model.meshes().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return of(model, modelMatrices, all);
    }
}
