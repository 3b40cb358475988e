package io.posekit.asset.md5;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one {@code .md5anim} into a clip of the model's joints.
 *
 * <p>Each joint of the anim's hierarchy drives the model joint of the same name (the first of that name; a joint
 * the model lacks is skipped with a warning, as is a joint whose parent differs from the model's). Per joint a
 * LINEAR translation and rotation track with one key per frame at {@code f / frameRate} seconds, each frame's
 * components replacing the baseframe's where the joint's flags say so; a track none of whose components is
 * animated is constant and has one key. Orientation w is derived as in {@link Md5Math#orientation}; rotation keys
 * are hemisphere-continuous. MD5 has no scale. The clip lasts {@code (numFrames − 1) / frameRate}.
 */
final class Md5ClipBuilder {

    private Md5ClipBuilder() {
    }

    /**
     * The clip of {@code anim}, named {@code name}.
     *
     * @param scene the model whose joints it drives
     */
    static ImportScene.Clip clip(Md5AnimFile anim, String name, Md5SceneBuilder scene, DecodeBudget budget,
            ImportWarnings warnings) {
        String file = anim.fileName();
        int frames = anim.frameCount();
        budget.charge(frames, 4, file + " key times");
        float[] times = new float[frames];
        for (int f = 1; f < frames; f++) {
            times[f] = (float) (f / anim.frameRate());
        }
        float[] zero = {0f};
        List<Track> tracks = new ArrayList<>();
        List<Md5AnimFile.Joint> joints = anim.joints();
        int[] nodes = new int[joints.size()];
        int skipped = 0;
        for (int j = 0; j < joints.size(); j++) {
            Md5AnimFile.Joint joint = joints.get(j);
            Integer node = scene.nodeOf(joint.name());
            nodes[j] = node == null ? -1 : node;
            if (node == null) {
                warnings.add(file + ": joint '" + Md5Lexer.shorten(joint.name()) + "' is not in the model; its channels"
                        + " are ignored");
                skipped++;
                continue;
            }
            int expectedParent = joint.parent() < 0 ? 0 : nodes[joint.parent()];
            if (scene.parentOf(node) != expectedParent) {
                warnings.add(file + ": joint '" + Md5Lexer.shorten(joint.name()) + "' has a different parent than in"
                        + " the model; its channels are ignored");
                skipped++;
                continue;
            }
            String where = file + " joint " + j + " ('" + Md5Lexer.shorten(joint.name()) + "')";
            tracks.add(translation(anim, j, node, times, zero, budget, where));
            tracks.add(rotation(anim, j, node, times, zero, budget, where));
        }
        if (skipped == joints.size() && skipped > 0) {
            warnings.add(file + ": none of its joints matches the model; the clip '" + name + "' is empty");
        }
        double duration = frames <= 1 ? 0 : (frames - 1) / anim.frameRate();
        return new ImportScene.Clip(name, tracks, List.of(), duration);
    }

    private static Track translation(Md5AnimFile anim, int j, int node, float[] times, float[] zero,
            DecodeBudget budget, String where) {
        boolean animated = (anim.joints().get(j).flags() & 0x7) != 0;
        int keys = animated ? anim.frameCount() : 1;
        budget.charge(3L * keys, 4, where + " translation keys");
        float[] values = new float[3 * keys];
        for (int f = 0; f < keys; f++) {
            for (int c = 0; c < 3; c++) {
                values[3 * f + c] = (float) anim.value(f, j, c);
            }
        }
        return track(node, TrackProperty.TRANSLATION, 3, animated ? times : zero, values, where);
    }

    private static Track rotation(Md5AnimFile anim, int j, int node, float[] times, float[] zero,
            DecodeBudget budget, String where) {
        boolean animated = (anim.joints().get(j).flags() & 0x38) != 0;
        int keys = animated ? anim.frameCount() : 1;
        budget.charge(4L * keys, 4, where + " rotation keys");
        float[] values = new float[4 * keys];
        double[] previous = null;
        for (int f = 0; f < keys; f++) {
            double[] q = Md5Math.orientation(anim.value(f, j, 3), anim.value(f, j, 4), anim.value(f, j, 5));
            if (previous != null && previous[0] * q[0] + previous[1] * q[1] + previous[2] * q[2] + previous[3] * q[3] < 0) {
                for (int c = 0; c < 4; c++) {
                    q[c] = -q[c];
                }
            }
            for (int c = 0; c < 4; c++) {
                values[4 * f + c] = (float) q[c];
            }
            previous = q;
        }
        return track(node, TrackProperty.ROTATION, 4, animated ? times : zero, values, where);
    }

    private static Track track(int node, TrackProperty property, int components, float[] times, float[] values,
            String where) {
        try {
            return new Track(node, property, Interpolation.LINEAR, components, times, values);
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
    }
}
