package io.posekit.asset.md5;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of an {@code .md5anim} file (MD5Version 10, Doom 3):
 *
 * <pre>
 * MD5Version 10
 * commandline "…"
 * numFrames F
 * numJoints J
 * frameRate R
 * numAnimatedComponents C
 * hierarchy { "name" parent flags startIndex   … J entries }
 * bounds { ( min ) ( max )                     … F entries, optional }
 * baseframe { ( px py pz ) ( qx qy qz )        … J entries }
 * frame f { C numbers }                        … F blocks, f = 0, 1, …
 * </pre>
 *
 * A joint's flags select which of its components (bit 0–2: position x y z, bit 3–5: orientation x y z) each frame
 * replaces, taken in that order from the frame's numbers starting at {@code startIndex}; the others keep the
 * baseframe's value. Values are relative to the parent joint (a root's to model space). Counts are checked against
 * the text left before allocating and charged to the {@link DecodeBudget}.
 */
final class Md5AnimFile {

    /** A joint of the hierarchy. */
    record Joint(String name, int parent, int flags, int startIndex) {
    }

    private static final int MIN_HIERARCHY = 7;
    private static final int MIN_FRAME = 9;

    private final String fileName;
    private final int frameCount;
    private final double frameRate;
    private final int components;
    private final List<Joint> joints;
    private final double[] baseframe;
    private final float[] frames;

    private Md5AnimFile(String fileName, int frameCount, double frameRate, int components, List<Joint> joints,
            double[] baseframe, float[] frames) {
        this.fileName = fileName;
        this.frameCount = frameCount;
        this.frameRate = frameRate;
        this.components = components;
        this.joints = joints;
        this.baseframe = baseframe;
        this.frames = frames;
    }

    /** The file's base name. */
    String fileName() {
        return fileName;
    }

    int frameCount() {
        return frameCount;
    }

    /** Frames per second (positive when there are at least two frames). */
    double frameRate() {
        return frameRate;
    }

    List<Joint> joints() {
        return joints;
    }

    /** Baseframe value {@code c} (0–2 position, 3–5 orientation x y z) of joint {@code j}. */
    double base(int j, int c) {
        return baseframe[6 * j + c];
    }

    /**
     * Component {@code c} (0–2 position, 3–5 orientation x y z) of joint {@code j} in frame {@code f}: the frame's
     * value when the joint's flags select it, else the baseframe's.
     */
    double value(int f, int j, int c) {
        Joint joint = joints.get(j);
        if ((joint.flags() & (1 << c)) == 0) {
            return baseframe[6 * j + c];
        }
        int index = joint.startIndex() + Integer.bitCount(joint.flags() & ((1 << c) - 1));
        return frames[f * components + index];
    }

    /**
     * Parses {@code file}.
     *
     * @throws ImportException invalid (422) at the first malformed token, bad count or reference (with file and
     *     line); unsupported (415) for an MD5Version other than 10; too large (413) past a limit
     */
    static Md5AnimFile parse(SourceFile file, ImportLimits limits, DecodeBudget budget) {
        String name = file.baseName();
        Md5Lexer lex = new Md5Lexer(name, file.bytes(), budget);
        lex.expectVersion10();
        int numFrames = -1;
        int numJoints = -1;
        int numComponents = -1;
        double frameRate = Double.NaN;
        List<Joint> joints = null;
        double[] baseframe = null;
        float[] frames = null;
        int framesRead = 0;
        boolean bounds = false;
        while (lex.kind() != Md5Lexer.Kind.END) {
            if (lex.isWord("commandline")) {
                lex.advance();
                lex.string("the command line");
            } else if (lex.isWord("numFrames")) {
                lex.advance();
                String at = lex.where();
                numFrames = Md5MeshFile.count(lex, "numFrames", MIN_FRAME, numFrames);
                if (numFrames == 0) {
                    throw ImportException.invalid(at + ": numFrames is 0; an animation needs at least one frame");
                }
                if (numFrames > limits.maxKeysPerTrack()) {
                    throw ImportLimits.exceeded(at + ": the animation", numFrames, "frames (keys per track)",
                            limits.maxKeysPerTrack(), ImportLimits.KEYS_PER_TRACK);
                }
            } else if (lex.isWord("numJoints")) {
                String at = lex.where();
                lex.advance();
                numJoints = Md5MeshFile.count(lex, "numJoints", MIN_HIERARCHY, numJoints);
                if (numJoints >= limits.maxNodes()) {
                    throw ImportException.tooLarge(at + ": numJoints " + numJoints
                            + " (plus the root node) exceeds the limit of " + limits.maxNodes() + " nodes ("
                            + ImportLimits.NODES + ")");
                }
            } else if (lex.isWord("frameRate")) {
                lex.advance();
                if (!Double.isNaN(frameRate)) {
                    throw lex.error("frameRate is declared twice");
                }
                String at = lex.where();
                frameRate = lex.number("frameRate");
                if (!(frameRate > 0)) {
                    throw ImportException.invalid(at + ": frameRate " + frameRate + " is not a positive number");
                }
            } else if (lex.isWord("numAnimatedComponents")) {
                lex.advance();
                numComponents = Md5MeshFile.count(lex, "numAnimatedComponents", 1, numComponents);
            } else if (lex.isWord("hierarchy")) {
                require(lex, "hierarchy", numJoints >= 0 && numComponents >= 0, "numJoints and numAnimatedComponents");
                if (joints != null) {
                    throw lex.error("a second hierarchy block");
                }
                lex.advance();
                joints = hierarchy(lex, numJoints, numComponents, budget);
            } else if (lex.isWord("bounds")) {
                require(lex, "bounds", numFrames >= 0, "numFrames");
                if (bounds) {
                    throw lex.error("a second bounds block");
                }
                lex.advance();
                bounds(lex, numFrames);
                bounds = true;
            } else if (lex.isWord("baseframe")) {
                require(lex, "baseframe", numJoints >= 0, "numJoints");
                if (baseframe != null) {
                    throw lex.error("a second baseframe block");
                }
                lex.advance();
                baseframe = baseframe(lex, numJoints, budget);
            } else if (lex.isWord("frame")) {
                require(lex, "frame", numFrames >= 0 && numComponents >= 0, "numFrames and numAnimatedComponents");
                lex.advance();
                if (frames == null) {
                    long values = (long) numFrames * numComponents;
                    if (values * 2 > lex.remaining() + 1) {
                        throw lex.error("numFrames " + numFrames + " × numAnimatedComponents " + numComponents
                                + " numbers are more than the rest of the file can hold (" + lex.remaining()
                                + " characters left)");
                    }
                    budget.charge(values, 4, name + " frames");
                    frames = new float[(int) values];
                }
                Md5MeshFile.entry(lex, null, "frame", framesRead, numFrames, "numFrames");
                lex.expectPunct('{');
                for (int c = 0; c < numComponents; c++) {
                    if (lex.isPunct('}')) {
                        throw lex.error("frame " + framesRead + " ends after " + c + " numbers but numAnimatedComponents is "
                                + numComponents);
                    }
                    frames[framesRead * numComponents + c] = lex.number("frame " + framesRead + " value " + c);
                }
                if (!lex.isPunct('}')) {
                    throw lex.error("expected '}' after the " + numComponents + " numbers of frame " + framesRead
                            + " (numAnimatedComponents) but found " + lex.describe());
                }
                lex.advance();
                framesRead++;
            } else {
                throw lex.error("expected commandline, numFrames, numJoints, frameRate, numAnimatedComponents, hierarchy,"
                        + " bounds, baseframe or frame but found " + lex.describe());
            }
        }
        missing(name, "numFrames", numFrames < 0);
        missing(name, "numJoints", numJoints < 0);
        missing(name, "frameRate", Double.isNaN(frameRate));
        missing(name, "numAnimatedComponents", numComponents < 0);
        missing(name, "the hierarchy block", joints == null);
        missing(name, "the baseframe block", baseframe == null);
        if (numFrames > 1 && !Float.isFinite((float) ((numFrames - 1) / frameRate))) {
            throw ImportException.invalid(name + ": frameRate " + frameRate + " is too small: the animation would last"
                    + " forever");
        }
        if (framesRead != numFrames) {
            throw ImportException.invalid(name + ": numFrames is " + numFrames + " but there "
                    + (framesRead == 1 ? "is 1 frame block" : "are " + framesRead + " frame blocks"));
        }
        return new Md5AnimFile(name, numFrames, frameRate, numComponents, joints, baseframe, frames);
    }

    private static void require(Md5Lexer lex, String block, boolean ok, String counts) {
        if (!ok) {
            throw lex.error("the " + block + " block comes before " + counts);
        }
    }

    private static void missing(String file, String what, boolean missing) {
        if (missing) {
            throw ImportException.invalid(file + ": " + what + " is missing");
        }
    }

    private static List<Joint> hierarchy(Md5Lexer lex, int count, int components, DecodeBudget budget) {
        budget.charge(count, 64, "hierarchy");
        lex.expectPunct('{');
        List<Joint> joints = new ArrayList<>(count);
        for (int j = 0; j < count; j++) {
            if (lex.isPunct('}')) {
                throw lex.error("the hierarchy block ends after " + j + " joints but numJoints is " + count);
            }
            String name = lex.string("joint " + j + " name");
            String at = lex.where();
            int parent = lex.integer("joint " + j + " parent");
            if (parent < -1 || parent >= j) {
                throw ImportException.invalid(at + ": joint " + j + " ('" + Md5Lexer.shorten(name) + "') has parent "
                        + parent + ", which is not −1 or an earlier joint");
            }
            at = lex.where();
            int flags = lex.integer("joint " + j + " flags");
            if (flags < 0 || flags > 63) {
                throw ImportException.invalid(at + ": joint " + j + " flags " + flags
                        + " are not a combination of the six component bits (0–63)");
            }
            at = lex.where();
            int start = lex.integer("joint " + j + " start index");
            if (flags != 0 && (start < 0 || (long) start + Integer.bitCount(flags) > components)) {
                throw ImportException.invalid(at + ": joint " + j + " reads " + Integer.bitCount(flags)
                        + " components from start index " + start + ", beyond numAnimatedComponents " + components);
            }
            joints.add(new Joint(name, parent, flags, start));
        }
        if (!lex.isPunct('}')) {
            throw lex.error("expected '}' after " + count + " joints (numJoints) but found " + lex.describe());
        }
        lex.advance();
        return joints;
    }

    private static void bounds(Md5Lexer lex, int count) {
        lex.expectPunct('{');
        for (int f = 0; f < count && !lex.isPunct('}'); f++) {
            Md5MeshFile.vector(lex, 3, "bounds " + f + " minimum");
            Md5MeshFile.vector(lex, 3, "bounds " + f + " maximum");
        }
        lex.expectPunct('}');
    }

    private static double[] baseframe(Md5Lexer lex, int count, DecodeBudget budget) {
        budget.charge(6L * count, 8, "baseframe");
        lex.expectPunct('{');
        double[] out = new double[6 * count];
        for (int j = 0; j < count; j++) {
            if (lex.isPunct('}')) {
                throw lex.error("the baseframe block ends after " + j + " joints but numJoints is " + count);
            }
            double[] p = Md5MeshFile.vector(lex, 3, "baseframe joint " + j + " position");
            double[] q = Md5MeshFile.vector(lex, 3, "baseframe joint " + j + " orientation");
            System.arraycopy(p, 0, out, 6 * j, 3);
            System.arraycopy(q, 0, out, 6 * j + 3, 3);
        }
        lex.expectPunct('}');
        return out;
    }
}
