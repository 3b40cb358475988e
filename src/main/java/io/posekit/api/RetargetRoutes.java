package io.posekit.api;

import io.posekit.api.body.AssetSummary;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.retarget.RetargetException;
import io.posekit.retarget.RetargetReport;
import io.posekit.retarget.RetargetRequest;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * Retargeting ({@code POST /api/v1/assets/{target}/retarget}): clips of a source asset played on the target's skeleton
 * of other proportions and rest pose ({@link io.posekit.retarget.Retargeter}), as a new asset with its own content id
 * (the target with the retargeted clips appended); the target and source are untouched. Request errors (a bad joint
 * map, an unknown clip or root joint) answer 400 and skeletons with no joint in common 422, naming the joints.
 */
@Component
class RetargetRoutes implements ApiRoutes {

    /** The largest request body: a joint map of a few hundred joints. */
    static final int MAX_BODY = 256 * 1024;

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final JsonBodies json;

    RetargetRoutes(AssetRepository assets, ParsingPool parsing, JsonBodies json) {
        this.assets = assets;
        this.parsing = parsing;
        this.json = json;
    }

    /**
     * What a retargeting made.
     *
     * @param asset the new asset
     * @param report what was paired and made
     */
    record Retargeted(AssetSummary asset, Report report) {
    }

    /**
     * The report (see {@link RetargetReport}).
     *
     * @param mapped driven target joints, parent-first
     * @param unmappedTarget target joints left at rest (at most 50)
     * @param unmappedTargetCount how many in all
     * @param unmappedSource source joints driving nothing (at most 50)
     * @param unmappedSourceCount how many in all
     * @param rootJoint the target joint carrying the root motion
     * @param rootScale its translation's scale (0: no root motion)
     * @param clips the retargeted clips
     */
    record Report(List<Mapped> mapped, List<String> unmappedTarget, int unmappedTargetCount, List<String> unmappedSource,
            int unmappedSourceCount, String rootJoint, double rootScale, List<RetargetReport.ClipReport> clips) {

        static Report of(RetargetReport r) {
            return new Report(r.mapped().stream().map(p -> new Mapped(p.target(), p.source(), p.rule().wireName()))
                    .toList(), r.unmappedTarget(), r.unmappedTargetCount(), r.unmappedSource(), r.unmappedSourceCount(),
                    r.rootJoint(), r.rootScale(), r.clips());
        }
    }

    /**
     * One driven target joint.
     *
     * @param target its name
     * @param source the source joint it follows ({@code null} for a chain joint)
     * @param rule map, humanoid_map, exact, normalised, role or chain
     */
    record Mapped(String target, String source, String rule) {
    }

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets/{id}/retarget").scope(Scope.WRITE).consumes(MAX_BODY, Negotiation.JSON).produces(Negotiation.JSON)
                .handle(this::retarget);
    }

    private Reply retarget(Exchange e) {
        String id = e.variable("id");
        JsonNode body = json.read(e, JsonNode.class);
        String source = text(body, "source");
        if (source == null) {
            throw ApiException.badRequest("Invalid body", "'source' (the id of the asset whose clips to retarget) is "
                    + "required");
        }
        RetargetRequest request = request(body);
        Assets.require(assets, e, id);
        Assets.require(assets, e, source);
        parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
        AssetRepository.Retargeted done;
        try {
            done = assets.retarget(e.caller().tenant(), id, source, request).orElseThrow(() -> Assets.unknownAsset(id));
        } catch (RetargetException x) {
            throw x.kind() == RetargetException.Kind.BAD_REQUEST
                    ? ApiException.badRequest("Invalid retargeting request", x.getMessage())
                    : new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Nothing to retarget", x.getMessage());
        }
        String newId = done.asset().meta().id();
        return json.reply(done.created() ? 201 : 200, new Retargeted(AssetSummary.of(done.asset()),
                Report.of(done.report()))).header("Location", "/api/v1/assets/" + newId);
    }

    /** The request's clips, joint map and options, checked for shape. */
    private static RetargetRequest request(JsonNode body) {
        List<String> clips = new ArrayList<>();
        JsonNode c = body.get("clips");
        if (c != null && !c.isNull()) {
            if (!c.isArray()) {
                throw ApiException.badRequest("Invalid body", "'clips' must be an array of clip names");
            }
            for (JsonNode clip : c) {
                if (!clip.isString()) {
                    throw ApiException.badRequest("Invalid body", "'clips' must be an array of clip names");
                }
                clips.add(clip.asString());
            }
        }
        Map<String, String> map = new LinkedHashMap<>();
        JsonNode m = body.get("jointMap");
        if (m != null && !m.isNull()) {
            if (!m.isObject()) {
                throw ApiException.badRequest("Invalid body", "'jointMap' must be an object {\"targetJoint\": "
                        + "\"sourceJoint\"}");
            }
            for (Map.Entry<String, JsonNode> entry : m.properties()) {
                if (!entry.getValue().isString()) {
                    throw ApiException.badRequest("Invalid body", "'jointMap' entry '" + entry.getKey()
                            + "' must name a source joint");
                }
                map.put(entry.getKey(), entry.getValue().asString());
            }
        }
        JsonNode options = body.get("options");
        RetargetRequest.RootMotion rootMotion = RetargetRequest.RootMotion.AUTO;
        String rootJoint = null;
        boolean keep = false;
        if (options != null && !options.isNull()) {
            JsonNode motion = options.get("rootMotion");
            if (motion != null && !motion.isNull()) {
                try {
                    rootMotion = RetargetRequest.RootMotion.parse(motion.isNumber() ? motion.asString()
                            : motion.isString() ? motion.asString() : "?");
                } catch (IllegalArgumentException x) {
                    throw ApiException.badRequest("Invalid body", "'options.rootMotion' must be \"auto\", \"none\" or "
                            + "a number ≥ 0, not " + motion);
                }
            }
            rootJoint = text(options, "rootJoint");
            JsonNode k = options.get("keepTranslations");
            if (k != null && !k.isNull()) {
                if (!k.isBoolean()) {
                    throw ApiException.badRequest("Invalid body", "'options.keepTranslations' must be true or false");
                }
                keep = k.asBoolean();
            }
        }
        return new RetargetRequest(clips, map, rootMotion, rootJoint, keep);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isString()) {
            throw ApiException.badRequest("Invalid body", "'" + field + "' must be a string");
        }
        return v.asString();
    }
}
