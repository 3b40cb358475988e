package io.posekit.asset.bvh;

import static io.posekit.asset.bvh.BvhTestSupport.importBvh;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HIERARCHY: nodes, names, end sites, rest pose, several roots, and tokenising whatever layout a file has. */
class HierarchyImportTest {

    @Test
    void jointsAndEndSitesAreNodesInDepthFirstOrderWithTheirOffsetsAsRestPose() {
        ImportScene s = importBvh(MotionImportTest.ZXY);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Hips", "Chest", "Chest_end");
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 1);
        assertThat(s.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(0, 1, 2);
        assertThat(s.nodes()).extracting(ImportScene.Node::translation)
                .containsExactly(new float[] {1, 2, 3}, new float[] {0, 10, 0}, new float[] {0, 5, 0});
        assertThat(s.nodes()).allSatisfy(n -> {
            assertThat(n.rotation()).isNull(); // identity
            assertThat(n.scale()).isNull(); // unit
        });
        assertThat(s.skins()).isEmpty();
        assertThat(s.meshes()).isEmpty();
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void severalRootsAreSeveralRootNodes() {
        ImportScene s = importBvh(MotionImportTest.TWO_ROOTS);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("A", "A_end", "B", "B_end");
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, -1, 2);
    }

    @Test
    void endSiteNamesAreUniqueAgainstEveryOtherName() {
        ImportScene s = importBvh("""
                HIERARCHY
                ROOT Hand
                {
                  OFFSET 0 0 0
                  CHANNELS 0
                  JOINT Hand_end
                  {
                    OFFSET 1 0 0
                    End Site
                    {
                      OFFSET 1 0 0
                    }
                  }
                  End Site
                  {
                    OFFSET 0 1 0
                  }
                  End Site
                  {
                    OFFSET 0 0 1
                  }
                }
                MOTION
                Frames: 1
                Frame Time: 1
                """);
        assertThat(s.nodes()).extracting(ImportScene.Node::name)
                .containsExactly("Hand", "Hand_end", "Hand_end_end", "Hand_end2", "Hand_end3");
    }

    @Test
    void layoutDoesNotMatter() {
        // tabs, CRLF, lone CR, blank lines, braces on the keyword's line, lower case keywords, a byte order mark,
        // values spread over lines, a name with a space, 'Frames:' without a space
        String text = "\uFEFFhierarchy\r\n\r\nroot My Hips {\r\n\toffset\t1\r\n 2 3\r\n\tchannels 2\tXPOSITION\r\n"
                + "zRotation\r\tjoint  Chest {  OFFSET 0 1 0  CHANNELS 1 Yrotation\n end site { OFFSET 0 1 0 } }\n}\n\n"
                + "motion\r\nframes:2\r\nframe time:\t0.25\r\n\r\n  1\t90\t0  \r\n\r\n2 0 90\r\n\r\n";
        ImportScene s = importBvh(text);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("My Hips", "Chest", "Chest_end");
        assertThat(s.nodes().getFirst().translation()).containsExactly(1, 2, 3);
        assertThat(s.clips().getFirst().tracks()).hasSize(3);
        assertThat(s.clips().getFirst().duration()).isEqualTo(0.25);
        assertThat(BvhTestSupport.track(s, 0, io.posekit.clip.TrackProperty.TRANSLATION).values())
                .containsExactly(2, 2, 3, 3, 2, 3);
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void numbersInEveryDecimalForm() {
        ImportScene s = importBvh("HIERARCHY\nROOT R\n{\nOFFSET .5 -2. +3e0\nCHANNELS 3 Xposition Yposition Zposition\n}\n"
                + "MOTION\nFrames: 1\nFrame Time: .0083333\n1E1 -0.25e+1 -0\n");
        assertThat(BvhTestSupport.track(s, 0, io.posekit.clip.TrackProperty.TRANSLATION).values())
                .containsExactly(10.5f, -4.5f, 3);
    }

    @Test
    void duplicateJointNamesAreWarnedAbout() {
        ImportScene s = importBvh("""
                HIERARCHY
                ROOT Bone
                {
                  OFFSET 0 0 0
                  JOINT Bone
                  {
                    OFFSET 1 0 0
                  }
                }
                MOTION
                Frames: 1
                Frame Time: 1
                """);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Bone", "Bone");
        assertThat(s.warnings()).containsExactly("2 joints are named 'Bone' (lines 2, 5); look-ups by name find the first");
    }

    @Test
    void repeatedPositionChannelsAreWarnedAboutAndTheLastValueWins() {
        ImportScene s = importBvh("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Xposition\n}\n"
                + "MOTION\nFrames: 1\nFrame Time: 1\n1 2\n");
        assertThat(BvhTestSupport.track(s, 0, io.posekit.clip.TrackProperty.TRANSLATION).values()).containsExactly(2, 0, 0);
        assertThat(s.warnings()).containsExactly("CHANNELS of ROOT 'R' (line 2) at line 5 lists Xposition more than once;"
                + " the last value of each frame is used");
    }

    @Test
    void theImporterIsRegisteredForBvhFiles() {
        AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        assertThat(importers.supportedFormats()).contains(AssetFormat.BVH);
        AssetImporters.Imported imported = importers.importUpload(List.of(
                new SourceFile("walk.BVH", MotionImportTest.ZXY.getBytes(StandardCharsets.UTF_8))));
        Model model = imported.model();
        assertThat(model.format()).isEqualTo(AssetFormat.BVH);
        assertThat(model.rig().names()).containsExactly("Hips", "Chest", "Chest_end");
        assertThat(model.skins()).isEmpty();
        assertThat(model.meshes()).isEmpty();
        assertThat(model.clips()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("animation"));
    }
}
