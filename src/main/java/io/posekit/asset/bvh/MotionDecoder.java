package io.posekit.asset.bvh;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the MOTION section (after the {@code MOTION} keyword) into the clip {@code animation}.
 *
 * <p>{@code Frames: n} and {@code Frame Time: s} come first, each on its own line; then one line per frame with
 * one value per channel, in the depth-first order of the joints and each joint's CHANNELS order. Frame f is a key
 * at {@code f · s} seconds (computed in double, stored as float like every key time); the clip lasts
 * {@code (n − 1) · s}. Every joint with position channels gets a LINEAR translation track of
 * {@code OFFSET + (x, y, z)}, a missing axis contributing 0 (three.js's BVHLoader adds the channels to the offset
 * the same way); every joint with rotation channels a LINEAR rotation track of the product of its rotations in
 * listed order, {@code R = R(c1) · R(c2) · …} (intrinsic; degrees), composed in double and made
 * hemisphere-continuous (each key on the side of the previous one).
 *
 * <p>Before anything is allocated the frame count is checked against the lines that are actually there (a file
 * claiming {@code Frames: 2000000000} fails at once with 422) and the keys are charged to the
 * {@link DecodeBudget} (413 past the limit).
 */
final class MotionDecoder {

    static final String CLIP_NAME = "animation";

    private static final Pattern FRAMES = Pattern.compile("(?i)frames\\s*:\\s*(\\S+)");
    private static final Pattern FRAME_TIME = Pattern.compile("(?i)frame\\s+time\\s*:\\s*(\\S+)");

    private final BvhText text;
    private final HierarchyParser.Hierarchy hierarchy;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;

    MotionDecoder(BvhText text, HierarchyParser.Hierarchy hierarchy, DecodeBudget budget, ImportWarnings warnings) {
        this.text = text;
        this.hierarchy = hierarchy;
        this.budget = budget;
        this.warnings = warnings;
    }

    /** The per-joint storage of one animated joint. */
    private static final class Animated {
        final int node;
        final Joint joint;
        final Channel[] channels;
        final int firstValue;
        float[] translations;
        float[] rotations;

        Animated(int node, Joint joint, int firstValue) {
            this.node = node;
            this.joint = joint;
            this.channels = joint.channelList().toArray(new Channel[0]);
            this.firstValue = firstValue;
        }
    }

    ImportScene.Clip decode() {
        int motionLine = hierarchy.motionLine();
        List<String> afterMotion = text.restOfLine();
        if (!afterMotion.isEmpty()) {
            throw ImportException.invalid("line " + motionLine + ": unexpected " + BvhText.quote(afterMotion.getFirst())
                    + " after MOTION (Frames: belongs on the next line)");
        }
        long frames = readFrameCount(motionLine);
        int framesLine = text.line();
        double frameTime = readFrameTime(framesLine);
        int headerEnd = text.line();

        int channelCount = hierarchy.channelCount();
        if (channelCount > 0) {
            long available = text.countContentLines(frames);
            if (available < frames) {
                throw ImportException.invalid("line " + framesLine + ": Frames: " + frames + ", but only " + available
                        + " frame line" + (available == 1 ? "" : "s") + " follow" + (available == 1 ? "s" : "")
                        + " (the file ends at line " + lastLine() + ")");
            }
        }
        if (channelCount == 0) {
            // nothing is animated: frames hold no values and take no lines; the clip only has a length
            warnAboutTrailingLines(headerEnd, frames);
            double duration = frames == 0 ? 0 : (float) ((frames - 1) * frameTime);
            if (!Double.isFinite(duration)) {
                throw ImportException.invalid("line " + framesLine + ": " + frames + " frames of Frame Time "
                        + frameTime + " s last longer than a clip can");
            }
            return new ImportScene.Clip(CLIP_NAME, List.of(), List.of(), duration);
        }
        if (frames == 0) {
            warnings.add("line " + framesLine + ": Frames: 0; the clip '" + CLIP_NAME + "' has no keys");
            warnAboutTrailingLines(headerEnd, frames);
            return new ImportScene.Clip(CLIP_NAME, List.of(), List.of(), 0.0);
        }
        if (frames > budget.limits().maxKeysPerTrack()) {
            throw ImportLimits.exceeded("line " + framesLine + ": the MOTION", frames, "frames (keys per track)",
                    budget.limits().maxKeysPerTrack(), ImportLimits.KEYS_PER_TRACK);
        }
        // at most one frame per line of the file, so the count fits an int now
        int n = (int) frames;
        List<Animated> animated = new ArrayList<>();
        int position = 0;
        int translationTracks = 0;
        int rotationTracks = 0;
        List<Joint> joints = hierarchy.joints();
        for (int i = 0; i < joints.size(); i++) {
            Joint j = joints.get(i);
            if (!j.channelList().isEmpty()) {
                Animated a = new Animated(i, j, position);
                position += a.channels.length;
                animated.add(a);
                if (hasPosition(a.channels)) {
                    translationTracks++;
                }
                if (hasRotation(a.channels)) {
                    rotationTracks++;
                }
            }
        }
        // key times plus 3 floats per translation and 4 per rotation key
        long floatsPerFrame = 1 + 3L * translationTracks + 4L * rotationTracks;
        String what = "MOTION: " + n + " frames of " + (translationTracks + rotationTracks) + " tracks";
        if (floatsPerFrame > Long.MAX_VALUE / 4 / n) {
            throw ImportException.tooLarge(what + " overflow the decode budget");
        }
        budget.charge(floatsPerFrame * n, 4, what);
        float[] times = keyTimes(n, frameTime, framesLine);
        for (Animated a : animated) {
            if (hasPosition(a.channels)) {
                a.translations = new float[3 * n];
            }
            if (hasRotation(a.channels)) {
                a.rotations = new float[4 * n];
            }
        }
        readFrames(n, channelCount, animated);
        warnAboutTrailingLines(text.line(), frames);
        List<Track> tracks = new ArrayList<>();
        for (Animated a : animated) {
            if (a.translations != null) {
                tracks.add(new Track(a.node, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, a.translations));
            }
            if (a.rotations != null) {
                tracks.add(new Track(a.node, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, a.rotations));
            }
        }
        return new ImportScene.Clip(CLIP_NAME, tracks, List.of(), (double) times[n - 1]);
    }

    private long readFrameCount(int motionLine) {
        if (!text.nextContentLine()) {
            throw ImportException.invalid("the file ends after MOTION (line " + motionLine + ") without 'Frames:'");
        }
        int line = text.line();
        String content = text.lineRemainder();
        Matcher m = FRAMES.matcher(content);
        if (!m.matches()) {
            throw ImportException.invalid("line " + line + ": expected 'Frames: <count>', found " + BvhText.quote(content));
        }
        String count = m.group(1);
        if (!count.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ImportException.invalid("line " + line + ": Frames: " + BvhText.quote(count)
                    + " is not a frame count (a whole number ≥ 0)");
        }
        String digits = count.replaceFirst("^0+(?=.)", "");
        if (digits.length() > 18) {
            throw ImportException.invalid("line " + line + ": Frames: " + BvhText.quote(count)
                    + " is far more frames than the file holds");
        }
        return Long.parseLong(digits);
    }

    private double readFrameTime(int framesLine) {
        if (!text.nextContentLine()) {
            throw ImportException.invalid("the file ends after 'Frames:' (line " + framesLine + ") without 'Frame Time:'");
        }
        int line = text.line();
        String content = text.lineRemainder();
        Matcher m = FRAME_TIME.matcher(content);
        if (!m.matches()) {
            throw ImportException.invalid("line " + line + ": expected 'Frame Time: <seconds>', found "
                    + BvhText.quote(content));
        }
        double seconds = BvhText.number(m.group(1), "line " + line + ": Frame Time");
        if (!(seconds > 0)) {
            throw ImportException.invalid("line " + line + ": Frame Time " + BvhText.quote(m.group(1))
                    + " is not a positive number of seconds");
        }
        return seconds;
    }

    private static float[] keyTimes(int n, double frameTime, int framesLine) {
        float[] times = new float[n];
        for (int f = 0; f < n; f++) {
            times[f] = (float) (f * frameTime);
        }
        if (!Float.isFinite(times[n - 1])) {
            throw ImportException.invalid("line " + framesLine + ": " + n + " frames of Frame Time " + frameTime
                    + " s last longer than a key time can express");
        }
        return times;
    }

    /** Reads {@code n} frame lines of {@code channelCount} values each into the joints' keys. */
    private void readFrames(int n, int channelCount, List<Animated> animated) {
        double[] row = new double[channelCount];
        double[] q = new double[4];
        for (int f = 0; f < n; f++) {
            budget.checkTime();
            if (!text.nextContentLine()) {
                // countContentLines() saw n lines, so this cannot happen; a precise message all the same
                throw ImportException.invalid("the file ends at line " + text.line() + " after " + f + " of " + n
                        + " frames");
            }
            int line = text.line();
            int values = 0;
            while (text.nextInLine()) {
                if (values < channelCount) {
                    if (!text.tokenIsDecimal()) {
                        throw ImportException.invalid(where(line, f, n) + ": value " + (values + 1) + " "
                                + text.quotedToken() + " (" + describeChannel(animated, values) + ") is not a number");
                    }
                    double v = text.tokenValue();
                    if (!Double.isFinite(v)) {
                        throw ImportException.invalid(where(line, f, n) + ": value " + (values + 1) + " "
                                + text.quotedToken() + " (" + describeChannel(animated, values) + ") is out of range");
                    }
                    row[values] = v;
                }
                values++;
            }
            if (values != channelCount) {
                throw ImportException.invalid(where(line, f, n) + " has " + values + " value" + (values == 1 ? "" : "s")
                        + "; the HIERARCHY declares " + channelCount + " channels");
            }
            for (Animated a : animated) {
                storeKey(a, f, row, q, line, n);
            }
        }
    }

    private static void storeKey(Animated a, int f, double[] row, double[] q, int line, int n) {
        double px = 0;
        double py = 0;
        double pz = 0;
        q[0] = 0;
        q[1] = 0;
        q[2] = 0;
        q[3] = 1;
        for (int c = 0; c < a.channels.length; c++) {
            Channel channel = a.channels[c];
            double v = row[a.firstValue + c];
            if (channel.isRotation()) {
                multiplyByAxisRotation(q, channel.axis(), v);
            } else {
                switch (channel.axis()) {
                    case 0 -> px = v;
                    case 1 -> py = v;
                    default -> pz = v;
                }
            }
        }
        if (a.translations != null) {
            double[] offset = a.joint.offset;
            float x = (float) (offset[0] + px);
            float y = (float) (offset[1] + py);
            float z = (float) (offset[2] + pz);
            if (!Float.isFinite(x) || !Float.isFinite(y) || !Float.isFinite(z)) {
                throw ImportException.invalid(where(line, f, n) + ": the position of " + a.joint.describe()
                        + " is out of range");
            }
            a.translations[3 * f] = x;
            a.translations[3 * f + 1] = y;
            a.translations[3 * f + 2] = z;
        }
        if (a.rotations != null) {
            float[] r = a.rotations;
            int o = 4 * f;
            // hemisphere continuity: q and −q are the same rotation; keep each key on the previous key's side
            double sign = f > 0 && q[0] * r[o - 4] + q[1] * r[o - 3] + q[2] * r[o - 2] + q[3] * r[o - 1] < 0 ? -1 : 1;
            r[o] = (float) (sign * q[0]);
            r[o + 1] = (float) (sign * q[1]);
            r[o + 2] = (float) (sign * q[2]);
            r[o + 3] = (float) (sign * q[3]);
        }
    }

    /**
     * {@code q ← q · R(axis, degrees)}: the rotation about the X, Y or Z axis applied in the frame already rotated
     * by {@code q} (intrinsic composition, the BVH convention). Double precision, the angle converted as
     * {@code degrees · π / 180}.
     */
    static void multiplyByAxisRotation(double[] q, int axis, double degrees) {
        double half = degrees * Math.PI / 180 / 2;
        double s = Math.sin(half);
        double c = Math.cos(half);
        double x = q[0];
        double y = q[1];
        double z = q[2];
        double w = q[3];
        // q · (s·e_axis, c), the Hamilton product with a pure-axis quaternion
        switch (axis) {
            case 0 -> {
                q[0] = x * c + w * s;
                q[1] = y * c + z * s;
                q[2] = z * c - y * s;
                q[3] = w * c - x * s;
            }
            case 1 -> {
                q[0] = x * c - z * s;
                q[1] = y * c + w * s;
                q[2] = z * c + x * s;
                q[3] = w * c - y * s;
            }
            default -> {
                q[0] = x * c + y * s;
                q[1] = y * c - x * s;
                q[2] = z * c + w * s;
                q[3] = w * c - z * s;
            }
        }
    }

    /** E.g. {@code line 190 (frame 3 of 2752)}. */
    private static String where(int line, int f, int n) {
        return "line " + line + " (frame " + (f + 1) + " of " + n + ")";
    }

    private static boolean hasPosition(Channel[] channels) {
        for (Channel c : channels) {
            if (!c.isRotation()) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasRotation(Channel[] channels) {
        for (Channel c : channels) {
            if (c.isRotation()) {
                return true;
            }
        }
        return false;
    }

    /** E.g. {@code Zrotation of ROOT 'Hips' (line 2)}: the channel the value at {@code index} of a frame is for. */
    private static String describeChannel(List<Animated> animated, int index) {
        for (Animated a : animated) {
            if (index < a.firstValue + a.channels.length) {
                return a.channels[index - a.firstValue].fileName() + " of " + a.joint.describe();
            }
        }
        return "channel " + (index + 1);
    }

    private void warnAboutTrailingLines(int afterLine, long frames) {
        long extra = text.countContentLines(Long.MAX_VALUE);
        if (extra > 0) {
            warnings.add(extra + " line" + (extra == 1 ? "" : "s") + " after line " + afterLine
                    + " ignored: the file holds more than the " + frames + " frame" + (frames == 1 ? "" : "s")
                    + " 'Frames:' declares");
        }
    }

    /** The number of the file's last line holding a token (moves the cursor to the end). */
    private int lastLine() {
        int last = text.line();
        while (text.nextContentLine()) {
            last = text.line();
            text.lineRemainder();
        }
        return last;
    }

}
