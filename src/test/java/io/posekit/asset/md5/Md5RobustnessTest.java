package io.posekit.asset.md5;

import static io.posekit.asset.md5.Md5Fixtures.ANIM;
import static io.posekit.asset.md5.Md5Fixtures.MESH;
import static io.posekit.asset.md5.Md5Fixtures.file;
import static io.posekit.asset.md5.Md5Fixtures.importFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Lying, malformed, truncated and corrupted MD5 text: every failure is an {@link ImportException} naming file and
 * line, raised before anything sized by a lying count is allocated; nothing else ever escapes.
 */
class Md5RobustnessTest {

    private static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    private static void assertMeshInvalid(String mesh, String message) {
        ImportException e = failure(() -> importFiles(file("guy.md5mesh", mesh)));
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    private static void assertAnimInvalid(String anim, String message) {
        ImportException e = failure(() -> importFiles(file("guy.md5mesh", MESH), file("walk.md5anim", anim)));
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    /** Imports and builds; reports whether it failed cleanly, fails the test on any other throwable. */
    private static boolean importsOrFailsCleanly(SourceFile main, SourceFile anim, String context) {
        try {
            ModelBuilder.build(AssetFormat.MD5, anim == null ? importFiles(main) : importFiles(main, anim));
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }

    @Test
    void countsTheTextCannotHoldFailBeforeAllocating() {
        // with the default 1 GiB budget this would be a 413 if it got as far as allocating
        String huge = MESH.replace("numverts 3", "numverts 1000000000");
        ImportException e = failure(() -> importFiles(file("guy.md5mesh", huge)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("guy.md5mesh line 16: mesh 0 numverts 1000000000 is more than the rest of"
                + " the file can hold (");
        assertMeshInvalid(MESH.replace("numJoints 2", "numJoints 2000000"),
                "guy.md5mesh line 4: numJoints 2000000 is more than the rest of the file can hold (" + (MESH.length()
                        - MESH.indexOf("numJoints 2") - "numJoints 2".length() - 1) + " characters left, room for at most "
                        + (MESH.length() - MESH.indexOf("numJoints 2") - "numJoints 2".length()) / 17 + ")");
        ImportException frames = failure(() -> importFiles(file("guy.md5mesh", MESH),
                file("walk.md5anim", ANIM.replace("numAnimatedComponents 3", "numAnimatedComponents 300"))));
        assertThat(frames.getMessage()).startsWith("walk.md5anim line 25: numFrames 3 × numAnimatedComponents 300 numbers"
                + " are more than the rest of the file can hold");
    }

    @Test
    void countsBiggerThanTheData() {
        assertMeshInvalid(MESH.replace("numverts 3", "numverts 4"),
                "guy.md5mesh line 29: mesh 0 ends after 3 verts but numverts is 4");
        assertMeshInvalid(MESH.replace("numMeshes 1", "numMeshes 2"), "guy.md5mesh: numMeshes is 2 but there is 1 mesh block");
        assertMeshInvalid(MESH.replace("numJoints 2", "numJoints 3"),
                "guy.md5mesh line 10: the joints block ends after 2 joints but numJoints is 3");
        assertMeshInvalid(MESH.replace("numweights 4", "numweights 3"),
                "guy.md5mesh line 28: mesh 0 has more weight entries than numweights 3");
        assertAnimInvalid(ANIM.replace("numFrames 3", "numFrames 4"), "walk.md5anim: numFrames is 4 but there are 3 frame blocks");
        assertAnimInvalid(ANIM.replace("\t2 0.5 0\n", "\t2 0.5\n"),
                "walk.md5anim line 31: frame 1 ends after 2 numbers but numAnimatedComponents is 3");
    }

    @Test
    void malformedTokens() {
        assertMeshInvalid(MESH.replace("vert 0 ( 0 0 ) 0 2", "vert 0 ( 0 0 ) x 2"),
                "guy.md5mesh line 17: expected mesh 0 vert 0 weight start (an integer) but found 'x'");
        assertMeshInvalid(MESH.replace("( 1 0 0 ) ( 0 0 -", "( 1 0 0 ( 0 0 -"),
                "guy.md5mesh line 9: expected ')' but found '('");
        assertMeshInvalid(MESH.replace("\"arm\"", "\"arm"), "guy.md5mesh line 9: unterminated string");
        assertMeshInvalid(MESH.replace("weight 0 0 0.25", "weight 0 0 nan"),
                "guy.md5mesh line 25: expected mesh 0 weight 0 bias (a number) but found 'nan'");
        assertMeshInvalid(MESH.replace("weight 0 0 0.25", "weight 0 0 1e99"),
                "guy.md5mesh line 25: mesh 0 weight 0 bias 1e99 is not finite");
        assertMeshInvalid(MESH.replace("numverts 3", "numverts 99999999999"),
                "guy.md5mesh line 16: mesh 0 numverts 99999999999 is out of range");
        assertMeshInvalid(MESH.replace("\tvert 1", "\tvert 2"),
                "guy.md5mesh line 18: mesh 0 vert 2 is out of order (expected vert 1)");
        assertMeshInvalid(MESH.replace("mesh {", "mesh {\n\tnormals 3"),
                "guy.md5mesh line 13: expected shader, numverts, vert, numtris, tri, numweights, weight or '}' in mesh 0"
                        + " but found 'normals'");
        assertMeshInvalid(MESH.replace("/* x", "").replace("MD5Version 10", "MD5Version 10 /* never closed"),
                "guy.md5mesh line 1: unterminated /* comment");
        assertMeshInvalid("{", "guy.md5mesh line 1: not an MD5 file: expected 'MD5Version' but found '{'");
        assertMeshInvalid("", "guy.md5mesh line 1: not an MD5 file: expected 'MD5Version' but found the end of the file");
    }

    @Test
    void referencesAreChecked() {
        assertMeshInvalid(MESH.replace("\"arm\"\t0", "\"arm\"\t1"),
                "guy.md5mesh line 9: joint 1 ('arm') has parent 1, which is not −1 or an earlier joint");
        assertMeshInvalid(MESH.replace("weight 1 1", "weight 1 2"),
                "guy.md5mesh line 26: mesh 0 weight 1 names joint 2, but there are 2 joints");
        assertMeshInvalid(MESH.replace("tri 0 0 1 2", "tri 0 0 1 3"),
                "guy.md5mesh: mesh 0 tri 0 uses vertex 3, but the mesh has 3 vertices");
        assertMeshInvalid(MESH.replace("vert 2 ( 0 1 ) 3 1", "vert 2 ( 0 1 ) 3 2"),
                "guy.md5mesh: mesh 0 vert 2 uses weights 3 … 4, but the mesh has 4 weights");
        assertAnimInvalid(ANIM.replace("\"arm\"\t0 37 0", "\"arm\"\t0 37 1"),
                "walk.md5anim line 11: joint 1 reads 3 components from start index 1, beyond numAnimatedComponents 3");
        assertAnimInvalid(ANIM.replace("\"arm\"\t0 37 0", "\"arm\"\t0 64 0"),
                "walk.md5anim line 11: joint 1 flags 64 are not a combination of the six component bits (0–63)");
        assertAnimInvalid(ANIM.replace("frame 1 {", "frame 2 {"),
                "walk.md5anim line 29: frame 2 is out of order (expected frame 1)");
        assertAnimInvalid(ANIM.replace("frameRate 24", "frameRate 0"), "walk.md5anim line 6: frameRate 0.0 is not a positive number");
        assertAnimInvalid(ANIM.replace("numFrames 3", "numFrames 0"),
                "walk.md5anim line 4: numFrames is 0; an animation needs at least one frame");
    }

    @Test
    void otherVersionsAreUnsupportedAndLimitsAre413() {
        ImportException v = failure(() -> importFiles(file("guy.md5mesh", MESH.replace("MD5Version 10", "MD5Version 11"))));
        assertThat(v.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(v.getMessage()).isEqualTo("guy.md5mesh line 1: MD5Version 11 is not supported; only version 10 (Doom 3) is");
        ImportException budget = failure(() -> importFiles(new ImportLimits(200, 100, 10, 1 << 20, 100), file("guy.md5mesh", MESH)));
        assertThat(budget.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(budget.getMessage()).contains("past its limit of 200 decoded bytes");
        ImportException nodes = failure(() -> importFiles(new ImportLimits(1 << 20, 2, 10, 1 << 20, 100), file("guy.md5mesh", MESH)));
        assertThat(nodes.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(nodes.getMessage()).isEqualTo("guy.md5mesh line 4: numJoints 2 (plus the root node) exceeds the limit of 2 nodes"
                + " (posekit.limits.nodes)");
    }

    @Test
    void everyTruncationFailsCleanly() {
        int failures = 0;
        for (int length = 0; length < MESH.length(); length++) {
            if (importsOrFailsCleanly(file("guy.md5mesh", MESH.substring(0, length)), null, "mesh cut at " + length)) {
                failures++;
            }
        }
        // only cuts inside the trailing white space or a final comment leave a complete file
        assertThat(failures).isGreaterThan(MESH.length() - 5);
        failures = 0;
        for (int length = 0; length < ANIM.length(); length++) {
            SourceFile anim = file("walk.md5anim", ANIM.substring(0, length));
            if (importsOrFailsCleanly(file("guy.md5mesh", MESH), anim, "anim cut at " + length)) {
                failures++;
            }
        }
        assertThat(failures).isGreaterThan(ANIM.length() - 5);
    }

    @Test
    void everyCorruptedCharacterFailsCleanlyOrImports() {
        char[] replacements = {'x', '0', '9', '-', '(', ')', '{', '}', '"', ' ', '/', '.', 'e'};
        for (String[] pair : new String[][] {{MESH, null}, {MESH, ANIM}}) {
            String target = pair[1] == null ? pair[0] : pair[1];
            for (int i = 0; i < target.length(); i++) {
                for (char c : replacements) {
                    String corrupted = target.substring(0, i) + c + target.substring(i + 1);
                    if (pair[1] == null) {
                        importsOrFailsCleanly(file("guy.md5mesh", corrupted), null, "mesh char " + i + " = " + c);
                    } else {
                        importsOrFailsCleanly(file("guy.md5mesh", MESH), file("walk.md5anim", corrupted),
                                "anim char " + i + " = " + c);
                    }
                }
            }
        }
    }
}
