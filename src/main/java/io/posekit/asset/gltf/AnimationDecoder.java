package io.posekit.asset.gltf;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.ArrayChecks;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Decodes glTF animations into {@link ImportScene.Clip}s, one per animation in file order. Each channel
 * becomes a {@link Track} on the imported node it targets; channels without a target node, with a path
 * other than translation/rotation/scale/weights, or targeting a node outside the import are skipped with a
 * warning. Sampler inputs are key times in seconds (SCALAR float, finite, non-decreasing); outputs are
 * float or normalized integers as the specification allows per path, in glTF layout (for CUBICSPLINE:
 * in-tangent, value, out-tangent per key). Key arrays come from the shared accessor cache.
 */
final class AnimationDecoder {

    private final GltfDocument doc;
    private final AccessorReader accessors;
    private final ImportWarnings warnings;

    AnimationDecoder(GltfDocument doc, AccessorReader accessors, ImportWarnings warnings) {
        this.doc = doc;
        this.accessors = accessors;
        this.warnings = warnings;
    }

    /**
     * All animations.
     *
     * @param graph the imported node set
     * @throws ImportException (invalid) naming the animation, channel or sampler at fault
     */
    List<ImportScene.Clip> decode(SceneGraph graph) {
        int count = doc.count("animations");
        int maxClips = accessors.budget().limits().maxClips();
        if (count > maxClips) {
            throw ImportLimits.exceeded("the asset", count, "animations", maxClips, ImportLimits.CLIPS);
        }
        List<ImportScene.Clip> clips = new ArrayList<>(count);
        for (int a = 0; a < count; a++) {
            clips.add(decodeAnimation(a, graph));
        }
        return clips;
    }

    private ImportScene.Clip decodeAnimation(int index, SceneGraph graph) {
        String where = "animation " + index;
        JsonNode animation = doc.element("animations", index, "animation");
        String name = Json.optString(animation, "name", where);
        JsonNode channels = Json.reqArray(animation, "channels", where);
        JsonNode samplers = Json.reqArray(animation, "samplers", where);
        int[] importIndex = graph.importIndex();
        List<Track> tracks = new ArrayList<>(channels.size());
        int outside = 0;
        for (int c = 0; c < channels.size(); c++) {
            accessors.budget().checkTime();
            String cw = where + " channel " + c;
            JsonNode channel = channels.get(c);
            if (!channel.isObject()) {
                throw ImportException.invalid(cw + " must be a JSON object, not " + Json.quote(channel));
            }
            int sampler = Json.checkIndex(Json.reqInt(channel, "sampler", cw), samplers.size(), "sampler", cw);
            JsonNode target = Json.reqObject(channel, "target", cw);
            String path = Json.optString(target, "path", cw + " target");
            if (path == null) {
                throw ImportException.invalid(cw + ": target.path is required");
            }
            if (!Json.has(target, "node")) {
                warnings.add(cw + " has no target node; skipped");
                continue;
            }
            int node = Json.checkIndex(Json.reqInt(target, "node", cw + " target"), graph.nodeCount(), "target node", cw);
            TrackProperty property = switch (path) {
                case "translation" -> TrackProperty.TRANSLATION;
                case "rotation" -> TrackProperty.ROTATION;
                case "scale" -> TrackProperty.SCALE;
                case "weights" -> TrackProperty.WEIGHTS;
                default -> null;
            };
            if (property == null) {
                warnings.add(cw + ": target path '" + Json.shorten(path, 40) + "' is not supported; skipped");
                continue;
            }
            if (!graph.isIncluded(node)) {
                outside++;
                continue;
            }
            JsonNode samplerJson = samplers.get(sampler);
            String sw = where + " sampler " + sampler;
            if (!samplerJson.isObject()) {
                throw ImportException.invalid(sw + " must be a JSON object, not " + Json.quote(samplerJson));
            }
            tracks.add(track(samplerJson, sw, importIndex[node], property));
        }
        if (outside > 0) {
            warnings.add(where + (name == null ? "" : " ('" + Json.shorten(name, 60) + "')") + ": " + outside
                    + (outside == 1 ? " channel targets a node" : " channels target nodes") + " outside "
                    + graph.sceneLabel() + "; dropped");
        }
        return new ImportScene.Clip(name, tracks);
    }

    private Track track(JsonNode sampler, String where, int node, TrackProperty property) {
        String interpolationName = Json.optString(sampler, "interpolation", where);
        Interpolation interpolation;
        if (interpolationName == null || interpolationName.equals("LINEAR")) {
            interpolation = Interpolation.LINEAR;
        } else if (interpolationName.equals("STEP")) {
            interpolation = Interpolation.STEP;
        } else if (interpolationName.equals("CUBICSPLINE")) {
            interpolation = Interpolation.CUBICSPLINE;
        } else {
            throw ImportException.invalid(where + ": interpolation '" + Json.shorten(interpolationName, 40)
                    + "' is not LINEAR, STEP or CUBICSPLINE");
        }
        Accessor input = accessors.require(Json.reqInt(sampler, "input", where), AccessorUsage.KEY_TIMES, "input", where);
        int maxKeys = accessors.budget().limits().maxKeysPerTrack();
        if (input.count() > maxKeys) {
            throw ImportLimits.exceeded(where + ": input " + input.describe(), input.count(), "keys", maxKeys,
                    ImportLimits.KEYS_PER_TRACK);
        }
        float[] times = accessors.floats(input);
        checkTimes(times, input, where);
        AccessorUsage usage = switch (property) {
            case TRANSLATION -> AccessorUsage.TRANSLATION_OUTPUT;
            case ROTATION -> AccessorUsage.ROTATION_OUTPUT;
            case SCALE -> AccessorUsage.SCALE_OUTPUT;
            case WEIGHTS -> AccessorUsage.WEIGHTS_OUTPUT;
        };
        Accessor output = accessors.require(Json.reqInt(sampler, "output", where), usage, "output", where);
        int keys = times.length;
        int perKey = interpolation == Interpolation.CUBICSPLINE ? 3 : 1;
        String layout = interpolation + " with " + keys + (keys == 1 ? " key" : " keys");
        int components;
        if (property == TrackProperty.WEIGHTS) {
            long per = (long) keys * perKey;
            if (output.count() % per != 0) {
                throw ImportException.invalid(where + ": output " + output.describe() + " has " + output.count()
                        + " elements, not a whole number of morph weights per key (" + layout + " needs a multiple of "
                        + per + ")");
            }
            components = (int) (output.count() / per);
        } else {
            components = property == TrackProperty.ROTATION ? 4 : 3;
            long needed = (long) keys * perKey;
            if (output.count() != needed) {
                throw ImportException.invalid(where + ": output " + output.describe() + " has " + output.count()
                        + " elements but " + layout + " needs " + needed);
            }
        }
        float[] values = accessors.floats(output);
        int bad = ArrayChecks.firstNonFinite(values);
        if (bad >= 0) {
            throw ImportException.invalid(where + ": output " + output.describe() + " value " + bad + " is not finite");
        }
        try {
            return new Track(node, property, interpolation, components, times, values);
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
    }

    /** Checks that key times are finite and non-decreasing. */
    private static void checkTimes(float[] times, Accessor input, String where) {
        for (int k = 0; k < times.length; k++) {
            if (!Float.isFinite(times[k])) {
                throw ImportException.invalid(where + ": input " + input.describe() + " key " + k + " time is not finite");
            }
            if (k > 0 && times[k] < times[k - 1]) {
                throw ImportException.invalid(where + ": input " + input.describe() + " key " + k + " time "
                        + times[k] + " is less than key " + (k - 1) + " time " + times[k - 1]);
            }
        }
    }
}
