package io.posekit.asset.bvh;

import static io.posekit.asset.bvh.BvhTestSupport.assertInvalid;

import org.junit.jupiter.api.Test;

/**
 * Files that are not valid BVH fail with 422 and a message naming the line and what is wrong there. The documents
 * are {@link MotionImportTest#ZXY} with one thing broken; its lines: 2 ROOT Hips, 6 JOINT Chest, 8 its OFFSET, 9 its
 * CHANNELS, 10 End Site, 16 MOTION, 17 Frames, 18 Frame Time, 19–21 the frames.
 */
class MalformedFileTest {

    private static final String Z = MotionImportTest.ZXY;
    private static final String FRAME_1 = "10 20 30 90 0 90 0 0 0";

    @Test
    void notBvhAtAll() {
        assertInvalid("  \n\n", "the file holds no BVH data (expected HIERARCHY)");
        assertInvalid("\u0089PNG\r\n", "line 1: expected HIERARCHY, found '\\u0089PNG' (not a BVH file?)");
        assertInvalid("HIERARCHY\n", "the HIERARCHY has no ROOT: the file ends at line 2");
        assertInvalid("HIERARCHY\nMOTION\n", "line 2: MOTION, but the HIERARCHY has no ROOT");
        assertInvalid("HIERARCHY\nJOINT A\n{\n", "line 2: expected ROOT or MOTION, found 'JOINT'");
    }

    @Test
    void unbalancedBraces() {
        assertInvalid(Z.replace("\t}\n}\nMOTION", "\t}\nMOTION"),
                "line 15: MOTION inside ROOT 'Hips' (line 2); 1 '}' missing before it");
        assertInvalid(Z.substring(0, Z.indexOf("\t}\n}\nMOTION")),
                "the file ends at line 14 inside JOINT 'Chest' (line 6): 2 '}' missing");
        assertInvalid(Z.replace("}\nMOTION", "}\n}\nMOTION"), "line 16: unbalanced '}' (no ROOT or JOINT is open)");
        assertInvalid(Z.replace("JOINT Chest\n\t{", "JOINT Chest\n"),
                "line 8: found 'OFFSET' where the '{' of JOINT 'Chest' (line 6) belongs");
        assertInvalid(Z.replace("\tJOINT Chest", "\tROOT Chest"), "line 6: ROOT inside ROOT 'Hips' (line 2); 1 '}' missing before it");
        assertInvalid(Z.replace("OFFSET 0 5 0", "OFFSET 0 5 0 JOINT x { OFFSET 0 0 0 }"),
                "line 12: 'JOINT' inside End Site (line 10); an End Site has no children (a '}' missing?)");
    }

    @Test
    void jointsAndEndSites() {
        assertInvalid(Z.replace("JOINT Chest", "JOINT"), "line 6: JOINT without a name");
        assertInvalid(Z.replace("JOINT Chest", "JOINT {"), "line 6: JOINT without a name");
        assertInvalid(Z.replace("End Site", "End Sight"), "line 10: expected 'End Site', found 'End Sight'");
        assertInvalid(Z.replace("OFFSET 0 5 0", "OFFSET 0 5 0 banana"),
                "line 12: unexpected 'banana' in End Site (line 10) (expected OFFSET or '}')");
        assertInvalid(Z.replace("OFFSET 0 10 0", "OFFSET 0 10 0 banana"),
                "line 8: unexpected 'banana' in JOINT 'Chest' (line 6) (expected OFFSET, CHANNELS, JOINT, End Site or '}')");
    }

    @Test
    void offsets() {
        assertInvalid(Z.replace("\t\tOFFSET 0 10 0\n", ""), "JOINT 'Chest' (line 6) has no OFFSET (its '}' is at line 13)");
        assertInvalid(Z.replace("\t\tOFFSET 0 10 0\n", "\t\tOFFSET 0 10 0\nOFFSET 1 1 1\n"),
                "line 9: a second OFFSET in JOINT 'Chest' (line 6)");
        assertInvalid(Z.replace("OFFSET 0 10 0", "OFFSET 0 NaN 0"),
                "OFFSET of JOINT 'Chest' (line 6) at line 8, value 2: 'NaN' is not a number");
        assertInvalid(Z.replace("OFFSET 0 10 0", "OFFSET 0 10"),
                "OFFSET of JOINT 'Chest' (line 6) at line 8, value 3: 'CHANNELS' is not a number");
        assertInvalid(Z.replace("OFFSET 0 10 0", "OFFSET 0 1e39 0"),
                "OFFSET of JOINT 'Chest' (line 6) at line 8, value 2: '1e39' is out of range");
        assertInvalid(Z.replace("OFFSET 0 10 0", "OFFSET 0 1e999 0"),
                "OFFSET of JOINT 'Chest' (line 6) at line 8, value 2: '1e999' is out of range");
        assertInvalid("HIERARCHY\nROOT R\n{\nOFFSET 0 0", "OFFSET of ROOT 'R' (line 2) at line 4, value 3 is missing: the file ends there");
    }

    @Test
    void channels() {
        String chest = "CHANNELS 3 Zrotation Xrotation Yrotation";
        assertInvalid(Z.replace(chest, "CHANNELS 3 Zrotation Wrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9: unknown channel 'Wrotation' at line 9 (channels are Xposition,"
                        + " Yposition, Zposition, Xrotation, Yrotation, Zrotation)");
        assertInvalid(Z.replace(chest, "CHANNELS 4 Zrotation Xrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9 declares 4 channels but lists 3 (then 'End' at line 10)");
        assertInvalid(Z.replace(chest, "CHANNELS 2 Zrotation Xrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9 declares 2 channels but lists more ('Yrotation' at line 9)");
        assertInvalid(Z.replace(chest, "CHANNELS three Zrotation Xrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9: 'three' is not a channel count");
        assertInvalid(Z.replace(chest, "CHANNELS -3 Zrotation Xrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9: '-3' is not a channel count");
        // a huge count allocates nothing: the names are read one by one
        assertInvalid(Z.replace(chest, "CHANNELS 2000000000 Zrotation Xrotation Yrotation"),
                "CHANNELS of JOINT 'Chest' (line 6) at line 9 declares 2000000000 channels but lists 3 (then 'End' at line 10)");
        assertInvalid(Z.replace(chest, chest + "\nCHANNELS 0"),
                "line 10: a second CHANNELS in JOINT 'Chest' (line 6) (the first is at line 9)");
        assertInvalid(Z.replace("OFFSET 0 5 0", "OFFSET 0 5 0 CHANNELS 0"),
                "line 12: CHANNELS in End Site (line 10); end sites are not animated");
        assertInvalid("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation",
                "CHANNELS of ROOT 'R' (line 2) at line 5 declares 2 channels but lists 1 before the file ends");
    }

    @Test
    void motionHeader() {
        assertInvalid(Z.substring(0, Z.indexOf("MOTION")),
                "the file ends at line 16 after the HIERARCHY, without a MOTION section");
        assertInvalid(Z.replace("MOTION", "MOTION now"), "line 16: unexpected 'now' after MOTION (Frames: belongs on the next line)");
        assertInvalid(Z.substring(0, Z.indexOf("Frames")), "the file ends after MOTION (line 16) without 'Frames:'");
        assertInvalid(Z.replace("Frames: 3", "Frames 3"), "line 17: expected 'Frames: <count>', found 'Frames 3'");
        assertInvalid(Z.replace("Frames: 3", "Frames: -3"), "line 17: Frames: '-3' is not a frame count (a whole number ≥ 0)");
        assertInvalid(Z.replace("Frames: 3", "Frames: 3.5"), "line 17: Frames: '3.5' is not a frame count (a whole number ≥ 0)");
        assertInvalid(Z.substring(0, Z.indexOf("Frame Time")), "the file ends after 'Frames:' (line 17) without 'Frame Time:'");
        assertInvalid(Z.replace("Frame Time: 0.5", "FrameTime: 0.5"),
                "line 18: expected 'Frame Time: <seconds>', found 'FrameTime: 0.5'");
        assertInvalid(Z.replace("Frame Time: 0.5", "Frame Time: fast"), "line 18: Frame Time: 'fast' is not a number");
        assertInvalid(Z.replace("Frame Time: 0.5", "Frame Time: 0"), "line 18: Frame Time '0' is not a positive number of seconds");
        assertInvalid(Z.replace("Frame Time: 0.5", "Frame Time: -0.5"),
                "line 18: Frame Time '-0.5' is not a positive number of seconds");
        assertInvalid(Z.replace("Frame Time: 0.5", "Frame Time: 2e38"),
                "line 17: 3 frames of Frame Time 2.0E38 s last longer than a key time can express");
    }

    @Test
    void frameCountsBeyondTheData() {
        assertInvalid(Z.replace("Frames: 3", "Frames: 4"),
                "line 17: Frames: 4, but only 3 frame lines follow (the file ends at line 21)");
        assertInvalid(Z.replace("Frames: 3", "Frames: 2000000000"),
                "line 17: Frames: 2000000000, but only 3 frame lines follow (the file ends at line 21)");
        assertInvalid(Z.replace("Frames: 3", "Frames: 99999999999999999999999"),
                "line 17: Frames: '99999999999999999999999' is far more frames than the file holds");
        assertInvalid(Z.substring(0, Z.indexOf("0 0 0 0 90")),
                "line 17: Frames: 3, but only 2 frame lines follow (the file ends at line 20)");
    }

    @Test
    void frameLines() {
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0"),
                "line 20 (frame 2 of 3) has 8 values; the HIERARCHY declares 9 channels");
        assertInvalid(Z.replace(FRAME_1, FRAME_1 + " 0"), "line 20 (frame 2 of 3) has 10 values; the HIERARCHY declares 9 channels");
        // frames are lines: one frame wrapped onto two lines is two wrong frames
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90\n0 90 0 0 0"),
                "line 20 (frame 2 of 3) has 4 values; the HIERARCHY declares 9 channels");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 nan 0 0 0"),
                "line 20 (frame 2 of 3): value 6 'nan' (Yrotation of ROOT 'Hips' (line 2)) is not a number");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0,5 0"),
                "line 20 (frame 2 of 3): value 8 '0,5' (Xrotation of JOINT 'Chest' (line 6)) is not a number");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0 0x1p3"),
                "line 20 (frame 2 of 3): value 9 '0x1p3' (Yrotation of JOINT 'Chest' (line 6)) is not a number");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0 1.5f"),
                "line 20 (frame 2 of 3): value 9 '1.5f' (Yrotation of JOINT 'Chest' (line 6)) is not a number");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 1e400 0 0 0"),
                "line 20 (frame 2 of 3): value 6 '1e400' (Yrotation of ROOT 'Hips' (line 2)) is out of range");
        assertInvalid(Z.replace(FRAME_1, "1e300 20 30 90 0 90 0 0 0"),
                "line 20 (frame 2 of 3): the position of ROOT 'Hips' (line 2) is out of range");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0 " + "x".repeat(100)),
                "line 20 (frame 2 of 3): value 9 '" + "x".repeat(40) + "…' (Yrotation of JOINT 'Chest' (line 6)) is not a number");
        assertInvalid(Z.replace(FRAME_1, "10 20 30 90 0 90 0 0 \u0000"),
                "line 20 (frame 2 of 3): value 9 '\\u0000' (Yrotation of JOINT 'Chest' (line 6)) is not a number");
    }

    @Test
    void crlfAndLoneCrCountLinesLikeLf() {
        assertInvalid(Z.replace("\n", "\r\n").replace(FRAME_1, "1 2"),
                "line 20 (frame 2 of 3) has 2 values; the HIERARCHY declares 9 channels");
        assertInvalid(Z.replace("\n", "\r").replace(FRAME_1, "1 2"),
                "line 20 (frame 2 of 3) has 2 values; the HIERARCHY declares 9 channels");
    }
}
