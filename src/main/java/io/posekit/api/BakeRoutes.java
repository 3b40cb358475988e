package io.posekit.api;

import io.posekit.api.body.BakeSpec;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
import io.posekit.bake.FrameEvaluator;
import io.posekit.ik.FootLock;
import io.posekit.config.PosekitProperties;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.NonRigidJointException;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.SkinningDualQuaternionsJob;
import io.posekit.skinning.SkinningMethod;
import io.posekit.store.AssetRepository;
import java.io.IOException;
import tools.jackson.databind.JsonNode;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import org.springframework.stereotype.Component;

/**
 * Baking ({@code POST /api/v1/assets/{id}/bake}): many frames of a clip in one streamed response, binary or NDJSON
 * (see {@link BakeWriter} for both layouts). The request is validated whole ({@link BakePlan}) before anything is
 * written; frames are then evaluated one at a time into reused buffers and streamed from the worker pool as the client
 * reads them.
 */
@Component
class BakeRoutes implements ApiRoutes {

    static final String NDJSON = "application/x-ndjson";
    static final String FRAMES_HEADER = "Posekit-Frames";
    /** The largest bake request body, bytes. */
    static final long MAX_BODY = 1 << 20;

    private final AssetRepository assets;
    private final JsonBodies json;
    private final int maxFrames;
    private final long maxBytes;

    BakeRoutes(AssetRepository assets, PosekitProperties properties, JsonBodies json) {
        this.assets = assets;
        this.json = json;
        this.maxFrames = properties.bake().maxFrames();
        this.maxBytes = properties.bake().maxBytes().toBytes();
    }

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets/{id}/bake").scope(Scope.READ).consumes(MAX_BODY, Negotiation.JSON)
                .produces(NDJSON, Negotiation.OCTET_STREAM).handle(this::bake);
    }

    private Reply bake(Exchange e) {
        String id = e.variable("id");
        String accept = e.header("Accept");
        JsonNode body = json.read(e, JsonNode.class);
        Model model = Assets.require(assets, e, id).model();
        BakePlan plan = BakePlan.parse(body, model, maxFrames, maxBytes);
        boolean posed = plan.outputs().contains(BakePlan.Output.SKINNED_POSITIONS)
                || plan.outputs().contains(BakePlan.Output.SKINNED_NORMALS)
                || plan.outputs().contains(BakePlan.Output.BOUNDS);
        boolean matrices = plan.outputs().contains(BakePlan.Output.SKINNING_MATRICES)
                || plan.outputs().contains(BakePlan.Output.SKINNING_DUAL_QUATERNIONS);
        FrameEvaluator frames = new FrameEvaluator(model, plan.clip(),
                plan.blend() == null ? null : plan.blend().evaluator(), matrices ? plan.skins() : new int[0],
                posed ? plan.meshes() : new int[0], plan.outputs().contains(BakePlan.Output.SKINNED_NORMALS),
                plan.outputs().contains(BakePlan.Output.BOUNDS), plan.skinning());
        FootLock footLock;
        try {
            footLock = plan.planFootLock(model);
        } catch (IllegalArgumentException x) {
            throw ApiException.badRequest("Invalid bake request", x.getMessage());
        }
        frames.setEdit(plan.postProcess(model, footLock, plan.rootMotion(model)));
        checkDualQuaternions(model, plan, posed, footLock);
        if (Negotiation.wantsBinary(accept)) {
            return Reply.stream(200, Negotiation.OCTET_STREAM, out -> BakeWriter.writeBinary(plan, frames, out))
                    .header(FRAMES_HEADER, Integer.toString(plan.times().length))
                    .header("Content-Length", Long.toString(BakeWriter.binaryLength(plan)));
        }
        return Reply.stream(200, NDJSON, out -> BakeWriter.writeNdjson(plan, frames, out))
                .header(FRAMES_HEADER, Integer.toString(plan.times().length));
    }

    /**
     * Evaluates every frame's skinning matrices once before streaming when dual quaternions are involved, so a joint
     * they cannot represent is a 422 naming the frame, not a broken stream: for {@code skinningDualQuaternions} every
     * joint of the selected skins, for {@code skinning=dq} the joints the selected meshes use.
     */
    private static void checkDualQuaternions(Model model, BakePlan plan, boolean posed, FootLock footLock) {
        boolean output = plan.outputs().contains(BakePlan.Output.SKINNING_DUAL_QUATERNIONS);
        boolean skinning = posed && plan.skinning() == SkinningMethod.DUAL_QUATERNION;
        if (!output && !skinning) {
            return;
        }
        int skinCount = model.skins().size();
        boolean[][] used = new boolean[skinCount][];
        boolean[] all = new boolean[skinCount];
        if (output) {
            for (int s : plan.skins()) {
                all[s] = true;
            }
        }
        if (skinning) {
            for (int m : plan.meshes()) {
                MeshInstance mesh = model.meshes().get(m);
                if (!mesh.skinned()) {
                    continue;
                }
                int s = mesh.skin();
                if (used[s] == null) {
                    used[s] = new boolean[model.skins().get(s).jointCount()];
                }
                for (Primitive p : mesh.primitives()) {
                    SkinningDualQuaternionsJob.markUsedJoints(p, used[s]);
                }
            }
        }
        int[] skins = java.util.stream.IntStream.range(0, skinCount).filter(s -> all[s] || used[s] != null).toArray();
        FrameEvaluator probe = new FrameEvaluator(model, plan.clip(),
                plan.blend() == null ? null : plan.blend().evaluator(), skins, new int[0], false, false,
                SkinningMethod.LINEAR);
        probe.setEdit(plan.postProcess(model, footLock, plan.rootMotion(model)));
        SkinningDualQuaternionsJob job = new SkinningDualQuaternionsJob();
        double[] scratch = new double[plan.blend() == null ? 0 : plan.blend().timings().size()];
        int most = 0;
        for (int s : skins) {
            most = Math.max(most, model.skins().get(s).jointCount());
        }
        job.outDualQuaternions = new float[8 * most];
        job.outScales = new float[most];
        for (int f = 0; f < plan.times().length; f++) {
            plan.evaluate(probe, f, scratch);
            for (int k = 0; k < skins.length; k++) {
                job.skinningMatrices = probe.skinningMatrices(k);
                job.usedJoints = all[skins[k]] ? null : used[skins[k]];
                try {
                    job.run();
                } catch (NonRigidJointException e) {
                    throw ApiException.notRigid(e, model, skins[k], "frame " + f + " (t = " + plan.times()[f] + "): ");
                }
            }
        }
    }
}
