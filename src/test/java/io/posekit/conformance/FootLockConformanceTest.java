package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.Model;
import io.posekit.bake.FrameEvaluator;
import io.posekit.bake.FramePostProcess;
import io.posekit.clip.Clip;
import io.posekit.ik.FootLock;
import io.posekit.retarget.RetargetRequest;
import io.posekit.retarget.Retargeter;
import io.posekit.rig.Rig;
import io.posekit.skinning.SkinningMethod;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * Foot locking measured on real mocap: CMU 01_01 (BVH, a jump) retargeted onto RiggedFigure (glTF), baked at 30 fps
 * with both legs locked. On the frames where a foot is planted (detected from ankle height and speed, the defaults),
 * the ankle's speed between consecutive planted frames is measured before and after: the retargeted clip slides its
 * feet, the locked one holds them still (two-bone IK, ozz's formulas, reaching its target to float precision). The
 * figures and a speed plot ({@code target/footlock-cmu.png}, in docs/api.md) are written for the docs.
 */
class FootLockConformanceTest {

    static final double FPS = 30;

    @Test
    void plantedFeetOfRetargetedMocapStopSliding() throws IOException {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        Model target = RetargetSupport.load("gltf/RiggedFigure/RiggedFigure.glb");
        Model source = RetargetSupport.load("bvh/01_01/01_01.bvh");
        Model model = Retargeter.retarget(target, source, new RetargetRequest(List.of(), CmuJointMaps.riggedFigure(),
                RetargetRequest.RootMotion.AUTO, null, false), 100).model();
        Clip clip = model.clips().getLast();
        Rig rig = model.rig();
        List<FootLock.Leg> legs = List.of(leg(rig, "L"), leg(rig, "R"));
        int frames = (int) Math.floor(clip.duration() * FPS) + 1;
        double[] times = new double[frames];
        for (int f = 0; f < frames; f++) {
            times[f] = f / FPS;
        }
        double[][] hips = new double[legs.size()][];
        double[][] before = ankles(model, clip, legs, times, null, hips);
        FootLock lock = FootLock.plan(rig, legs, times, hips, before, new FootLock.Settings(null, null, null));
        double[][] after = ankles(model, clip, legs, times, new FramePostProcess(rig, lock, null, List.of()),
                new double[legs.size()][]);

        double slideBefore = 0;
        double slideAfter = 0;
        double worstAfter = 0;
        int steps = 0;
        int planted = 0;
        int relocks = 0;
        StringBuilder csv = new StringBuilder("time,leg,planted,speedBefore,speedAfter\n");
        for (int l = 0; l < legs.size(); l++) {
            for (int f = 0; f < frames; f++) {
                planted += lock.planted(l, f) ? 1 : 0;
                if (f + 1 < frames) {
                    double vb = speed(before[l], f);
                    double va = speed(after[l], f);
                    // a step within one lock (a re-plant when the point went out of reach starts another)
                    boolean both = lock.lockedAt(l, f) >= 0 && lock.lockedAt(l, f) == lock.lockedAt(l, f + 1);
                    relocks += lock.planted(l, f) && lock.planted(l, f + 1) && !both ? 1 : 0;
                    csv.append(String.format(Locale.ROOT, "%.4f,%d,%d,%.6f,%.6f%n", times[f], l, both ? 1 : 0, vb, va));
                    if (both) {
                        slideBefore += vb;
                        slideAfter += va;
                        worstAfter = Math.max(worstAfter, va);
                        steps++;
                    }
                }
            }
        }
        double legLength = lock.speed(0) / FootLock.DEFAULT_SPEED;
        System.out.printf(Locale.ROOT, "foot locking, CMU 01_01 on RiggedFigure: %d frames at %.0f fps, leg %.4f,"
                + " planted frames %d of %d, locked steps %d (re-plants %d), mean locked speed before %.5f after %.3g"
                + " (max %.3g) units/s%n", frames, FPS, legLength, planted, 2 * frames, steps, relocks,
                slideBefore / steps, slideAfter / steps, worstAfter);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/footlock-cmu.csv"), csv);
        plot(before, after, lock, times, Path.of("target/footlock-cmu.png"));

        assertThat(steps).as("planted steps").isGreaterThan(frames / 4);
        assertThat(slideBefore / steps).as("the retargeted clip slides its planted feet").isGreaterThan(0.01 * legLength);
        assertThat(slideAfter / steps).as("locked: mean planted speed ≈ 0").isLessThan(1e-3 * slideBefore / steps);
        assertThat(worstAfter).as("locked: largest planted speed").isLessThan(1e-3 * legLength);
    }

    private static FootLock.Leg leg(Rig rig, String side) {
        return new FootLock.Leg(rig.indexOf("leg_joint_" + side + "_1"), rig.indexOf("leg_joint_" + side + "_2"),
                rig.indexOf("leg_joint_" + side + "_3"));
    }

    /**
     * Each leg's ankle position at every frame (3 per frame), with {@code post} applied when given; the hips' positions
     * into {@code hips}.
     */
    private static double[][] ankles(Model model, Clip clip, List<FootLock.Leg> legs, double[] times,
            FramePostProcess post, double[][] hips) {
        FrameEvaluator frames = new FrameEvaluator(model, clip, null, new int[0], new int[0], false, false,
                SkinningMethod.LINEAR);
        frames.setEdit(post);
        double[][] out = new double[legs.size()][3 * times.length];
        for (int l = 0; l < legs.size(); l++) {
            hips[l] = new double[3 * times.length];
        }
        for (int f = 0; f < times.length; f++) {
            if (post != null) {
                post.frame(f, 0);
            }
            frames.evaluate(times[f]);
            for (int l = 0; l < legs.size(); l++) {
                int a = 16 * legs.get(l).ankle();
                int h = 16 * legs.get(l).hip();
                for (int k = 0; k < 3; k++) {
                    out[l][3 * f + k] = frames.modelMatrices()[a + 12 + k];
                    hips[l][3 * f + k] = frames.modelMatrices()[h + 12 + k];
                }
            }
        }
        return out;
    }

    private static double speed(double[] p, int f) {
        double dx = p[3 * f + 3] - p[3 * f];
        double dy = p[3 * f + 4] - p[3 * f + 1];
        double dz = p[3 * f + 5] - p[3 * f + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz) * FPS;
    }

    /** The left ankle's speed over time, before (grey) and after (blue), planted frames shaded. */
    private static void plot(double[][] before, double[][] after, FootLock lock, double[] times, Path file)
            throws IOException {
        int w = 900;
        int h = 300;
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        int n = times.length - 1;
        double max = 0.25; // units/s: the planted slide shows; the swings go off the top
        g.setColor(new Color(255, 226, 170));
        for (int f = 0; f < n; f++) {
            if (lock.planted(0, f)) {
                int x0 = 40 + (int) ((w - 60) * f / (double) n);
                int x1 = 40 + (int) ((w - 60) * (f + 1) / (double) n);
                g.fillRect(x0, 20, Math.max(1, x1 - x0), h - 50);
            }
        }
        g.setColor(Color.BLACK);
        g.drawLine(40, h - 30, w - 20, h - 30);
        g.drawLine(40, 20, 40, h - 30);
        g.drawString(String.format(Locale.ROOT, "%.2f", max), 2, 25);
        g.drawString("0", 25, h - 30);
        g.drawString(String.format(Locale.ROOT, "CMU 01_01 on RiggedFigure, left ankle speed (units/s, cut at %.2f)"
                + " over %.1f s: grey retargeted, blue foot-locked, orange planted", max, times[n]), 60, h - 10);
        g.setStroke(new BasicStroke(1.2f));
        for (double[][] series : new double[][][] {before, after}) {
            g.setColor(series == before ? Color.GRAY : new Color(30, 90, 220));
            for (int f = 0; f + 1 < n; f++) {
                int x0 = 40 + (int) ((w - 60) * f / (double) n);
                int x1 = 40 + (int) ((w - 60) * (f + 1) / (double) n);
                int y0 = h - 30 - (int) ((h - 50) * Math.min(1, speed(series[0], f) / max));
                int y1 = h - 30 - (int) ((h - 50) * Math.min(1, speed(series[0], f + 1) / max));
                g.drawLine(x0, y0, x1, y1);
            }
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }
}
