package io.posekit.api;

import io.posekit.api.body.AssetSummary;
import io.posekit.api.security.Scope;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.Reply;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.clip.Clip;
import io.posekit.clip.TrackProperty;
import io.posekit.export.AnimatedGltf;
import io.posekit.motion.InPlaceClip;
import io.posekit.motion.RootMotionComponent;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Router;
import io.posekit.api.http.UploadReader;
import io.posekit.asset.ClipBinding;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Clips from another file ({@code POST /api/v1/assets/{id}/clips}): an animation file (glTF, COLLADA, BVH, .x, FBX…)
 * whose clips are bound to the asset's rig by joint name, or by the humanoid maps of a VRM animation and avatar
 * ({@link ClipBinding}), and added to a new, combined asset with
 * its own content id; the original asset is untouched. And clips made in place ({@code POST
 * /api/v1/assets/{id}/clips/{clip}/in-place}), added the same way.
 */
@Component
class ClipRoutes implements ApiRoutes {

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;
    private final JsonBodies json;

    ClipRoutes(AssetRepository assets, ParsingPool parsing, PosekitProperties properties, JsonBodies json) {
        this.assets = assets;
        this.parsing = parsing;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
        this.json = json;
    }

    /**
     * What adding clips did.
     *
     * @param asset the combined asset
     * @param binding the rule that bound the tracks and what was done to the keys
     * @param clips how each added clip was bound
     * @param skipped clips of the file none of whose tracks targets a joint of the asset
     */
    record ClipsAdded(AssetSummary asset, Binding binding, List<BoundClip> clips, List<String> skipped) {
    }

    /**
     * How the file's tracks were bound ({@link ClipBinding}).
     *
     * @param rule {@code humanoid_map} (both files declare a humanoid bone map: bones bound to the same bones, names
     *     only for nodes outside the maps) or {@code name}
     * @param turned whether the keys were turned 180° about Y (a VRM 0.x side and a +Z-facing one)
     * @param translationScale what the humanoid bones' translation keys were scaled by (the hips' rest heights' ratio)
     */
    record Binding(String rule, boolean turned, double translationScale) {

        static Binding of(ClipBinding.Bound b) {
            return new Binding(b.rule().wireName(), b.turned(), b.translationScale());
        }
    }

    /**
     * One added clip.
     *
     * @param name its name in the combined asset (made unique with " (2)"… when the asset already has one so named)
     * @param sourceName its name in the uploaded file
     * @param tracks tracks bound
     * @param unmatched names of the file's animated nodes that the asset has no node for
     * @param notAnimated asset joints the clip does not animate (at most 50 listed)
     * @param notAnimatedCount how many in all
     * @param rules how many of the bound tracks each rule bound: {@code humanoid_map}, {@code name}
     */
    record BoundClip(String name, String sourceName, int tracks, List<String> unmatched, List<String> notAnimated,
            int notAnimatedCount, java.util.Map<String, Integer> rules) {

        static BoundClip of(ClipBinding.ClipReport r) {
            java.util.Map<String, Integer> rules = new java.util.LinkedHashMap<>();
            rules.put(ClipBinding.Rule.HUMANOID_MAP.wireName(), r.byHumanoidMap());
            rules.put(ClipBinding.Rule.NAME.wireName(), r.byName());
            return new BoundClip(r.name(), r.sourceName(), r.tracks(), r.unmatched(), r.notAnimated(),
                    r.notAnimatedCount(), rules);
        }
    }

    /**
     * What making a clip in place did.
     *
     * @param asset the new asset (the original with the in-place clip added)
     * @param clip the new clip's name
     * @param source the clip it was made from
     * @param rootJoint the joint whose motion was extracted
     * @param topNode the node now carrying the motion
     * @param components what was extracted
     * @param keys keys of the sampled root and top-node tracks
     */
    record InPlace(AssetSummary asset, String clip, String source, String rootJoint, String topNode,
            List<String> components, int keys) {
    }

    /** The default sampling rate of the in-place root and top-node tracks, per second. */
    static final double IN_PLACE_FPS = 60;

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets/{id}/clips/{clip}/in-place").scope(Scope.WRITE).consumes(64 * 1024, Negotiation.JSON)
                .precheck(e -> assets.checkQuotaIfKnown(e.caller().tenant(), 0))
                .produces(Negotiation.JSON).handle(this::inPlace);
        routes.post("/api/v1/assets/{id}/clips").scope(Scope.WRITE).query("filename").consumes(uploads.maxBody(), "*/*")
                .limitText(uploads.maxBodyText())
                .precheck(e -> assets.checkQuotaIfKnown(e.caller().tenant(), 0))
                .upload(e -> uploads.open(e, assets.newSpool()))
                .produces(Negotiation.JSON).handle(e -> {
                    String id = e.variable("id");
                    parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
                    AssetRepository.AddedClips added = assets.addClips(e.caller().tenant(), id, e.upload())
                            .orElseThrow(() -> Assets.unknownAsset(id));
                    String newId = added.asset().meta().id();
                    return json.reply(added.created() ? 201 : 200, new ClipsAdded(AssetSummary.of(added.asset()),
                            Binding.of(added.binding()), added.binding().clips().stream().map(BoundClip::of).toList(), added.binding().skipped()))
                            .header("Location", "/api/v1/assets/" + newId);
                });
    }

    /**
     * {@code POST …/clips/{clip}/in-place}: the clip with its root motion extracted ({@link InPlaceClip}: the hips in
     * place, the motion on the top node), added to a new asset as a glTF animation bound by name, like added clips.
     */
    private Reply inPlace(Exchange e) {
        String id = e.variable("id");
        JsonNode body = json.read(e, JsonNode.class);
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("Invalid body", "the body must be a JSON object ({} for the defaults)");
        }
        for (String field : body.propertyNames()) {
            if (!List.of("rootJoint", "rootComponents", "fps", "name").contains(field)) {
                throw ApiException.badRequest("Invalid body", "unknown field '" + field + "'; fields: rootJoint,"
                        + " rootComponents, fps, name");
            }
        }
        Model model = Assets.require(assets, e, id).model();
        Clip clip = Sampling.parse(model, SamplingQuery.of(e.variable("clip"), null)).clip();
        List<String> components = null;
        if (body.hasNonNull("rootComponents")) {
            JsonNode c = body.get("rootComponents");
            if (!c.isArray()) {
                throw ApiException.badRequest("Invalid body", "rootComponents must be a list of names");
            }
            components = new ArrayList<>();
            for (JsonNode n : c) {
                components.add(n.asString());
            }
        }
        PostProcessing.RootMotion root = PostProcessing.parse(model, "extract", text(body, "rootJoint"), components,
                null, null).rootMotion();
        double fps = IN_PLACE_FPS;
        if (body.hasNonNull("fps")) {
            if (!body.get("fps").isNumber() || !(body.get("fps").asDouble() > 0)) {
                throw ApiException.badRequest("Invalid body", "fps must be a positive number, not " + body.get("fps"));
            }
            fps = body.get("fps").asDouble();
        }
        String name = text(body, "name");
        Rig rig = model.rig();
        InPlaceClip.Result made;
        try {
            made = InPlaceClip.make(rig, clip, root.joint(), root.components(), fps,
                    name != null ? name : clip.name() + " (in place)");
        } catch (IllegalArgumentException x) {
            throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Cannot make the clip in place", x.getMessage());
        }
        for (int node : new int[] {made.top(), root.joint()}) {
            if (rig.name(node) == null || rig.indexOf(rig.name(node)) != node) {
                throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Cannot make the clip in place", "node " + node
                        + " (" + (rig.name(node) == null ? "unnamed" : "'" + rig.name(node) + "', not the first of that"
                        + " name") + ") cannot be bound by name: the in-place clip is stored as an added clip");
            }
        }
        // the clip alone on the rig (no meshes, no morph weights): what the clip binding reads back by node name
        Clip only = new Clip(made.clip().name(), made.clip().duration(), made.clip().tracks().stream()
                .filter(t -> t.property() != TrackProperty.WEIGHTS).toList(), made.clip().nodeTransforms());
        byte[] glb = AnimatedGltf.of(new Model(model.format(), rig, List.of(), List.of(), List.of(only), List.of()),
                AnimatedGltf.Options.DEFAULT.with(io.posekit.export.Coordinates.FILE)).glb();
        parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
        AssetRepository.AddedClips added = assets.addClips(e.caller().tenant(), id,
                        List.of(new SourceFile("in-place.glb", glb)))
                .orElseThrow(() -> Assets.unknownAsset(id));
        String newId = added.asset().meta().id();
        return json.reply(added.created() ? 201 : 200, new InPlace(AssetSummary.of(added.asset()),
                added.binding().clips().getFirst().name(), clip.name(), rig.name(root.joint()), rig.name(made.top()),
                root.components().stream().map(RootMotionComponent::wireName).toList(), made.keys()))
                .header("Location", "/api/v1/assets/" + newId);
    }

    private static String text(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isString()) {
            throw ApiException.badRequest("Invalid body", field + " must be a string");
        }
        return v.asString();
    }
}
