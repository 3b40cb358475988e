package io.posekit.api;

import io.posekit.api.body.SamplingQuery;
import io.posekit.api.body.ShapeResponses;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.clip.ClipTimes;
import io.posekit.rig.SkeletonLines;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.BoundsAccumulator;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import io.posekit.store.AssetRepository;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import org.springframework.stereotype.Component;

/**
 * Bounds of the posed asset ({@code /api/v1/assets/{id}/bounds}): axis-aligned box and bounding sphere of every mesh
 * instance, of all meshes together and of the skeleton's joints, at one time or over a whole clip. Thumbnail
 * services frame their camera with it.
 *
 * <p>{@code over=clip} poses the asset at every key time of the clip and on a {@value #RATE} Hz grid (both ends
 * included; at most {@value #MAX_GRID} grid points and {@value #MAX_KEYS} key times), and returns the union. The
 * sphere is centred on the (union) box, its radius the farthest posed vertex from that centre, computed in a second
 * pass over the same times, so it is exact for the sampled times. Computed on the worker pool.
 */
@Component
class BoundsRoutes implements ApiRoutes {

    static final double RATE = 60;
    static final int MAX_GRID = 1024;
    static final int MAX_KEYS = 4096;
    private static final Set<VertexAttribute> POSITIONS = EnumSet.of(VertexAttribute.POSITION);

    private final AssetRepository assets;
    private final JsonBodies json;

    BoundsRoutes(AssetRepository assets, JsonBodies json) {
        this.assets = assets;
        this.json = json;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/api/v1/assets/{id}/bounds").scope(Scope.READ).query(SamplingRoutes.with(SamplingRoutes.SAMPLING, "over")).repeatable("layer")
                .produces(Negotiation.JSON).immutable().handle(this::bounds);
    }

    private Reply bounds(Exchange e) {
        String id = e.variable("id");
        String over = e.query("over");
        SamplingQuery query = SamplingRoutes.query(e);
        Model model = Assets.require(assets, e, id).model();
        boolean overClip = "clip".equals(over);
        if (over != null && !over.isEmpty() && !overClip && !"time".equals(over)) {
            throw ApiException.badRequest("Invalid over", "over '" + over + "' is not one of time, clip");
        }
        if (overClip) {
            if (query.layer() != null && !query.layer().isEmpty()) {
                throw ApiException.badRequest("Invalid over", "over=clip bounds one clip, not a blend");
            }
            if (query.clip() == null || query.clip().isEmpty()) {
                throw ApiException.badRequest("Invalid over", "over=clip needs a clip");
            }
            if (given(query.time()) || given(query.frame()) || given(query.fps()) || given(query.normalized())
                    || given(query.speed())) {
                throw ApiException.badRequest("Invalid over", "over=clip bounds the whole clip; give no time, frame,"
                        + " fps, normalized or speed");
            }
        }
        Sampling s = Sampling.parse(model, query);
        double[] times = overClip ? ClipTimes.of(s.clip(), RATE, MAX_GRID, MAX_KEYS)
                : new double[] {s.localTime() == null ? 0 : s.localTime()};
        Accumulators acc = new Accumulators(model);
        for (int pass = 0; pass < 2; pass++) {
            for (double t : times) {
                acc.add(overClip ? Pose.evaluate(model.rig(), s.clip(), t) : s.evaluate(model),
                        overClip ? MorphWeights.evaluate(model.meshes(), s.clip(), t) : s.morphWeights(model), pass == 0);
            }
        }
        List<ShapeResponses.MeshBounds> meshes = new ArrayList<>(model.meshes().size());
        for (int i = 0; i < model.meshes().size(); i++) {
            meshes.add(new ShapeResponses.MeshBounds(i, model.meshes().get(i).name(), acc.meshes[i].bounds()));
        }
        return json.reply(200, new ShapeResponses.AssetBounds(s.clipName(), overClip ? null : s.time(),
                overClip ? null : s.loop().wireName(), overClip ? null : s.localTime(), overClip ? "clip" : "time",
                times.length, acc.asset.bounds(), meshes, acc.skeleton.bounds(), s.layers()));
    }

    private static boolean given(String param) {
        return param != null && !param.isEmpty();
    }

    /** The box-then-sphere accumulators of every mesh, the whole asset and the skeleton. */
    private static final class Accumulators {

        final Model model;
        final BoundsAccumulator[] meshes;
        final BoundsAccumulator asset = new BoundsAccumulator();
        final BoundsAccumulator skeleton = new BoundsAccumulator();
        final int[] joints;
        final float[] jointPositions;

        Accumulators(Model model) {
            this.model = model;
            this.meshes = new BoundsAccumulator[model.meshes().size()];
            for (int i = 0; i < meshes.length; i++) {
                meshes[i] = new BoundsAccumulator();
            }
            this.joints = SkeletonLines.of(model.rig(), model.skins(), false).nodes();
            this.jointPositions = new float[3 * joints.length];
        }

        void add(Pose pose, MorphWeights weights, boolean box) {
            float[] m = pose.modelMatrices();
            for (int i = 0; i < meshes.length; i++) {
                MeshInstance mesh = model.meshes().get(i);
                float[] skinning = mesh.skinned() ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), m) : null;
                for (PosedPrimitive p : MeshPoser.pose(mesh, weights.weights(i), skinning, m, POSITIONS)) {
                    add(meshes[i], p.positions(), p.vertexCount(), box);
                    add(asset, p.positions(), p.vertexCount(), box);
                }
            }
            for (int k = 0; k < joints.length; k++) {
                System.arraycopy(m, 16 * joints[k] + 12, jointPositions, 3 * k, 3);
            }
            add(skeleton, jointPositions, joints.length, box);
        }

        private static void add(BoundsAccumulator a, float[] xyz, int count, boolean box) {
            if (box) {
                a.addToBox(xyz, 0, count);
            } else {
                a.addToSphere(xyz, 0, count);
            }
        }
    }
}
