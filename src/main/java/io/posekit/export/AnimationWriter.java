package io.posekit.export;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.TrackSampler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes clips as glTF animations into a {@link GltfWriter}: one sampler per channel; key time accessors shared by
 * content across the document.
 *
 * <ul>
 *   <li>A translation, rotation or scale keyframe track whose key times glTF accepts (finite, non-negative, strictly
 *       increasing) is written as it is — STEP, LINEAR (glTF's LINEAR rotation is the exact slerp posekit uses) or
 *       CUBICSPLINE; a STEP or LINEAR rotation normalised only when its length is off by more than
 *       {@value AnimatedGltf#UNIT_SLACK} (glTF's validator allows 0.00769; posekit samples the values as they are, so
 *       keeping them keeps the round trip exact) — unless a resampling rate is asked for.</li>
 *   <li>Anything else (curve-driven transform stacks; tracks with repeated or negative times; every translation,
 *       rotation and scale track when a rate is given) is resampled and reduced ({@link ClipResampler}).</li>
 *   <li>A morph weights track targets every node that carries an instance of the track's node with as many morph
 *       targets as the track has components (posekit applies it to all of them); written as it is, or sampled on the
 *       check grid when its times are not acceptable. A weights track no node can take is left out.</li>
 * </ul>
 *
 * <p>A clip with no channel left is not written (glTF requires at least one). Not thread-safe.
 */
final class AnimationWriter {

    private final GltfWriter doc;
    private final Rig rig;
    private final Map<Integer, List<int[]>> carriers;
    private final Double fps;
    private final ClipResampler.Tolerances tolerances;
    private final Map<TimesKey, Integer> inputs = new HashMap<>();

    /**
     * @param carriers per rig node, the glTF nodes carrying its instances and their morph target counts
     * @param fps the resampling rate, or {@code null}
     */
    AnimationWriter(GltfWriter doc, Rig rig, Map<Integer, List<int[]>> carriers, Double fps,
            ClipResampler.Tolerances tolerances) {
        this.doc = doc;
        this.rig = rig;
        this.carriers = carriers;
        this.fps = fps;
        this.tolerances = tolerances;
    }

    /** Writes {@code clip}; its report, or {@code null} when it has no channel glTF can take. */
    AnimatedGltf.ClipReport write(Clip clip) {
        List<String> samplers = new ArrayList<>();
        List<String> channels = new ArrayList<>();
        int exact = 0;
        int resampled = 0;
        long before = 0;
        long after = 0;
        double[] maxError = new double[3];
        List<ClipResampler.Channel> reduced = new ArrayList<>();
        for (Track track : clip.tracks()) {
            boolean ok = ClipResampler.expressible(track);
            if (track.property() == TrackProperty.WEIGHTS) {
                List<Integer> targets = weightTargets(track);
                if (targets.isEmpty()) {
                    continue;
                }
                int sampler;
                if (ok) {
                    sampler = sampler(samplers, track.interpolation(), track.times(), track.values(), "SCALAR",
                            track.values().length);
                    exact += targets.size();
                } else {
                    float[] frames = ClipResampler.frames(clip, null).times();
                    float[] values = new float[frames.length * track.components()];
                    for (int f = 0; f < frames.length; f++) {
                        TrackSampler.sample(track, frames[f], values, f * track.components());
                    }
                    sampler = sampler(samplers, Interpolation.LINEAR, frames, values, "SCALAR", values.length);
                    // sampled on the check frames, not reduced: every frame a key
                    resampled += targets.size();
                    before += (long) frames.length * targets.size();
                    after += (long) frames.length * targets.size();
                }
                for (int node : targets) {
                    channels.add(channel(sampler, node, "weights"));
                }
            } else if (ok && fps == null) {
                float[] values = track.values();
                if (track.property() == TrackProperty.ROTATION && track.interpolation() != Interpolation.CUBICSPLINE) {
                    values = values.clone();
                    for (int i = 0; i < values.length; i += 4) {
                        AnimatedGltf.normalizeIfFar(values, i);
                    }
                }
                int sampler = sampler(samplers, track.interpolation(), track.times(), values,
                        track.components() == 4 ? "VEC4" : "VEC3", track.times().length
                                * (track.interpolation() == Interpolation.CUBICSPLINE ? 3 : 1));
                channels.add(channel(sampler, track.node(), track.property().wireName()));
                exact++;
            } else {
                reduced.add(ClipResampler.resample(track, clip, fps, tolerances));
            }
        }
        for (NodeTransformTrack stack : clip.nodeTransforms()) {
            reduced.addAll(ClipResampler.resample(stack, rig, clip, fps, tolerances));
        }
        for (ClipResampler.Channel c : reduced) {
            KeyReduction.Reduced keys = c.keys();
            int sampler = sampler(samplers, Interpolation.LINEAR, keys.times(), keys.values(),
                    c.property() == TrackProperty.ROTATION ? "VEC4" : "VEC3", keys.times().length);
            channels.add(channel(sampler, c.node(), c.property().wireName()));
            resampled++;
            before += keys.keysBefore();
            after += keys.keysAfter();
            int slot = switch (c.property()) {
                case ROTATION -> 0;
                case TRANSLATION -> 1;
                default -> 2;
            };
            maxError[slot] = Math.max(maxError[slot], keys.maxError());
        }
        if (channels.isEmpty()) {
            return null;
        }
        doc.animations.add("{\"name\":" + GltfJson.string(clip.name()) + ",\"channels\":["
                + String.join(",", channels) + "],\"samplers\":[" + String.join(",", samplers) + "]}");
        return new AnimatedGltf.ClipReport(clip.name(), channels.size(), exact, resampled, before, after, maxError[0],
                maxError[1], maxError[2]);
    }

    /** The glTF nodes a weights track drives: carriers of its node's instances with matching target counts. */
    private List<Integer> weightTargets(Track track) {
        List<Integer> out = new ArrayList<>();
        for (int[] carrier : carriers.getOrDefault(track.node(), List.of())) {
            if (carrier[1] == track.components() && !out.contains(carrier[0])) {
                out.add(carrier[0]);
            }
        }
        return out;
    }

    private static String channel(int sampler, int node, String path) {
        return "{\"sampler\":" + sampler + ",\"target\":{\"node\":" + node + ",\"path\":\"" + path + "\"}}";
    }

    private int sampler(List<String> samplers, Interpolation interpolation, float[] times, float[] values, String type,
            int count) {
        int input = input(times);
        int output = doc.accessor(new GltfWriter.FloatBlock(values), 0, GltfWriter.FLOAT, type, count, "");
        samplers.add("{\"input\":" + input + ",\"interpolation\":\"" + interpolation.name() + "\",\"output\":" + output
                + "}");
        return samplers.size() - 1;
    }

    private int input(float[] times) {
        return inputs.computeIfAbsent(new TimesKey(times), k -> doc.accessor(new GltfWriter.FloatBlock(times), 0,
                GltfWriter.FLOAT, "SCALAR", times.length, ",\"min\":" + GltfJson.exactFloats(new float[] {times[0]})
                        + ",\"max\":" + GltfJson.exactFloats(new float[] {times[times.length - 1]})));
    }

    /** Key times compared by content. */
    private record TimesKey(float[] times) {

        @Override
        public boolean equals(Object o) {
            return o instanceof TimesKey k && Arrays.equals(k.times, times);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(times);
        }
    }
}
