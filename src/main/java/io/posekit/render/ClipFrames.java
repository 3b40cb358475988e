package io.posekit.render;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of an animated preview: a clip sampled at evenly spaced times and drawn with one camera, so the picture
 * holds still while the model moves.
 */
public final class ClipFrames {

    private ClipFrames() {
    }

    /**
     * The clip-local times of {@code count} frames {@code 1 / fps} apart from 0, wrapped into the clip's duration (a
     * clip shorter than the preview repeats). Seconds.
     */
    public static double[] times(Clip clip, double fps, int count) {
        double[] t = new double[count];
        double d = clip == null ? 0 : clip.duration();
        for (int i = 0; i < count; i++) {
            double time = i / fps;
            t[i] = d > 0 ? time % d : 0;
        }
        return t;
    }

    /**
     * The number of frames that play {@code clip} once at {@code fps}: its duration × fps rounded, at least 1 (the frame
     * at the duration itself is left out: a looping preview shows the first frame again right after).
     */
    public static int count(Clip clip, double fps) {
        double d = clip == null ? 0 : clip.duration();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(d * fps)));
    }

    /**
     * Draws {@code model} posed by {@code clip} at each of {@code times} (clip-local seconds; {@code clip} {@code null}:
     * the rest pose) with {@code camera}.
     *
     * @see Rasteriser#render
     */
    public static List<RgbaImage> render(Rasteriser rasteriser, Model model, Clip clip, double[] times, Camera camera,
            int width, int height, int background) {
        List<RgbaImage> frames = new ArrayList<>(times.length);
        for (double t : times) {
            Pose pose = Pose.evaluate(model.rig(), clip, t);
            MorphWeights weights = clip == null ? null : MorphWeights.evaluate(model.meshes(), clip, t);
            frames.add(rasteriser.render(PosedScene.surfaces(model, pose.modelMatrices(), weights), camera, width,
                    height, background));
        }
        return frames;
    }

    /** GIF delays, hundredths of a second, for {@code count} frames at {@code fps}: rounded so they add up without drift. */
    public static int[] delays(double fps, int count) {
        int[] d = new int[count];
        for (int i = 0; i < count; i++) {
            d[i] = (int) (Math.round((i + 1) * 100 / fps) - Math.round(i * 100 / fps));
        }
        return d;
    }
}
