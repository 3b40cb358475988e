package io.posekit.api;

import io.posekit.api.body.ShapeResponses;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import io.posekit.rig.SkeletonLines;
import io.posekit.sampling.Pose;
import io.posekit.store.AssetRepository;
import java.util.ArrayList;
import java.util.List;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import org.springframework.stereotype.Component;

/**
 * Skeleton lines at a clip and time ({@code /api/v1/assets/{id}/skeleton}): what a debug draw of the rig shows,
 * model-space joint positions and parent→child segments (see {@link SkeletonLines}).
 */
@Component
class SkeletonRoutes implements ApiRoutes {

    private final AssetRepository assets;
    private final JsonBodies json;

    SkeletonRoutes(AssetRepository assets, JsonBodies json) {
        this.assets = assets;
        this.json = json;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/api/v1/assets/{id}/skeleton").scope(Scope.READ).query(SamplingRoutes.with(SamplingRoutes.SAMPLING, "nodes")).repeatable("layer")
                .produces(Negotiation.JSON).immutable().inline(e -> Assets.ready(assets, e, e.variable("id")))
                .handle(this::skeleton);
    }

    private Reply skeleton(Exchange e) {
        String id = e.variable("id");
        String nodes = e.query("nodes");
        Model model = Assets.require(assets, e, id).model();
        boolean all = "all".equals(nodes);
        if (nodes != null && !nodes.isEmpty() && !all && !"joints".equals(nodes)) {
            throw ApiException.badRequest("Invalid nodes", "nodes '" + nodes + "' is not one of joints, all");
        }
        Sampling s = Sampling.parse(model, SamplingRoutes.query(e));
        Pose pose = s.evaluate(model);
        Rig rig = model.rig();
        SkeletonLines lines = SkeletonLines.of(rig, model.skins(), all);
        float[] m = pose.modelMatrices();
        List<ShapeResponses.Joint> joints = new ArrayList<>(lines.nodes().length);
        for (int k = 0; k < lines.nodes().length; k++) {
            int node = lines.nodes()[k];
            joints.add(new ShapeResponses.Joint(rig.name(node), node, lines.parents()[k],
                    new float[] {m[16 * node + 12], m[16 * node + 13], m[16 * node + 14]}));
        }
        List<int[]> segments = new ArrayList<>(lines.segmentCount());
        float[] flat = new float[6 * lines.segmentCount()];
        int o = 0;
        for (int k = 0; k < lines.nodes().length; k++) {
            int parent = lines.parents()[k];
            if (parent < 0) {
                continue;
            }
            segments.add(new int[] {parent, k});
            System.arraycopy(joints.get(parent).position(), 0, flat, o, 3);
            System.arraycopy(joints.get(k).position(), 0, flat, o + 3, 3);
            o += 6;
        }
        return json.reply(200, new ShapeResponses.Skeleton(s.clipName(), s.time(), s.loop().wireName(), s.localTime(),
                all ? "all" : "joints", joints, segments, flat, s.layers()));
    }
}
