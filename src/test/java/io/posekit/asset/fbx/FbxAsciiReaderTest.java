package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxBinaryWriter.leaf;
import static io.posekit.asset.fbx.FbxBinaryWriter.node;
import static io.posekit.asset.fbx.FbxBinaryWriter.root;
import static io.posekit.asset.fbx.FbxContainerTestSupport.asciiTypes;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertInvalid;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertSameTree;
import static io.posekit.asset.fbx.FbxContainerTestSupport.failure;
import static io.posekit.asset.fbx.FbxContainerTestSupport.read;
import static io.posekit.asset.fbx.FbxContainerTestSupport.readAscii;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ASCII container: the same trees as binary files, every piece of syntax, and precise errors by line. */
class FbxAsciiReaderTest {

    /** An FBX 7.4 ASCII document as the SDK writes one (tabs, double spaces before '{', arrays as *N { a: … }). */
    static final String CUBE = """
            ; FBX 7.4.0 project file
            ; ----------------------------------------------------

            FBXHeaderExtension:  {
            \tFBXHeaderVersion: 1003
            \tFBXVersion: 7400
            \tCreator: "posekit test"
            }
            GlobalSettings:  {
            \tVersion: 1000
            \tProperties70:  {
            \t\tP: "UpAxis", "int", "Integer", "",1
            \t\tP: "UnitScaleFactor", "double", "Number", "",2.5
            \t}
            }
            Objects:  {
            \tGeometry: 1001, "Geometry::Cube", "Mesh" {
            \t\tVertices: *9 {
            \t\t\ta: 0,0,0,1,0.5,-22.5,0.001,-3,7
            \t\t}\s
            \t\tPolygonVertexIndex: *3 {
            \t\t\ta: 0,1,-3
            \t\t}\s
            \t\tGeometryVersion: 124
            \t}
            \tModel: 1002, "Model::Cube", "Mesh" {
            \t\tVersion: 232
            \t\tShading: T
            \t\tCulling: "CullingOff"
            \t}
            }

            ; Object connections
            ;------------------------------------------------------------------

            Connections:  {
            \t
            \t;Model::Cube, Model::RootNode
            \tC: "OO",1002,0
            \t
            \t;Geometry::Cube, Model::Cube
            \tC: "OO",1001,1002
            }
            """;

    /** CUBE as a binary file would hold it (names with \0\1 aside, which the containers write differently). */
    static final FbxNode CUBE_BINARY = root(
            node("FBXHeaderExtension", List.of(),
                    leaf("FBXHeaderVersion", 1003), leaf("FBXVersion", 7400), leaf("Creator", "posekit test")),
            node("GlobalSettings", List.of(),
                    leaf("Version", 1000),
                    node("Properties70", List.of(),
                            leaf("P", "UpAxis", "int", "Integer", "", 1),
                            leaf("P", "UnitScaleFactor", "double", "Number", "", 2.5))),
            node("Objects", List.of(),
                    node("Geometry", List.of(1001L, "Geometry::Cube", "Mesh"),
                            leaf("Vertices", (Object) new double[] {0, 0, 0, 1, 0.5, -22.5, 0.001, -3, 7}),
                            leaf("PolygonVertexIndex", (Object) new int[] {0, 1, -3}),
                            leaf("GeometryVersion", 124)),
                    node("Model", List.of(1002L, "Model::Cube", "Mesh"),
                            leaf("Version", 232), leaf("Shading", "T"), leaf("Culling", "CullingOff"))),
            node("Connections", List.of(),
                    leaf("C", "OO", 1002L, 0L),
                    leaf("C", "OO", 1001L, 1002L)));

    @Test
    void anSdkStyleDocumentGivesTheSameTreeAsTheBinaryFile() {
        FbxReader.Document ascii = readAscii(CUBE);
        FbxReader.Document binary = read(FbxBinaryWriter.write(CUBE_BINARY, 7400, true));

        assertThat(ascii.version()).isEqualTo(7400);
        assertThat(ascii.binary()).isFalse();
        assertSameTree(asciiTypes(CUBE_BINARY), ascii.root());
        assertSameTree(asciiTypes(binary.root()), ascii.root());
        // the accessors read both alike
        FbxNode a = ascii.root().child("Objects").child("Geometry");
        FbxNode b = binary.root().child("Objects").child("Geometry");
        assertThat(a.child("PolygonVertexIndex").ints(0)).containsExactly(b.child("PolygonVertexIndex").ints(0));
        assertThat(a.child("Vertices").doubles(0)).containsExactly(b.child("Vertices").doubles(0));
        assertThat(a.integer(0)).isEqualTo(b.integer(0)).isEqualTo(1001);
        assertThat(ascii.root().child("Objects").child("Geometry").child("Vertices").property(0))
                .isInstanceOf(double[].class);
        assertThat(ascii.root().child("Objects").child("Geometry").child("PolygonVertexIndex").property(0))
                .isInstanceOf(long[].class);
    }

    @Test
    void everyPieceOfSyntax() {
        String text = "\uFEFF; a BOM, CRLF line ends and comments everywhere\r\n"
                + "FBXHeaderExtension: { FBXVersion: 6100 } ; one line\r\n"
                + "Strings: \"a, b; {c} : d\", \"two\r\nlines\", \"\", \"Bône ✓\", \"&quot;kept&quot;\"\r\n"
                + "Words: T, Y, W, N, L, U,s ; bare words stay strings\r\n"
                + "Numbers: 0, -7, +7, 12345678901234567890, 1.5, -.5, 5., 1e3, -2.5E-2, 1.#INF, -1.#IND, nan\r\n"
                + "Continued: 1,2,\r\n"
                + "    3,\r\n"
                + "    ; a comment between values\r\n"
                + "    4\r\n"
                + "Content: ,\r\n"
                + "    \"QUJD\"\r\n"
                + "Key: \r\n"
                + "    1924423250,0,L,\r\n"
                + "    46186158000,10,L\r\n"
                + "Wrapped: 1.5,2.5\r\n"
                + ",3.5,\"s\"\r\n"
                + "NextLine: ; the values follow\r\n"
                + "    \"a\", \"b\"\r\n"
                + "BraceOnNextLine: 1\r\n"
                + "{\r\n"
                + "    Empty:\r\n"
                + "    EmptyBraces:  {\r\n"
                + "    }\r\n"
                + "    Inline: { Child: 1 } \r\n"
                + "}\r\n"
                + "Arrays:  {\r\n"
                + "    Empty: *0 {\r\n"
                + "        a: \r\n"
                + "    }\r\n"
                + "    Bare: *0 {}\r\n"
                + "    Lines: *5 {\r\n"
                + "        a: 1,2,\r\n"
                + "        3 , 4 ; comment\r\n"
                + "        ,5\r\n"
                + "    }\r\n"
                + "    Mixed: *3 {a: 1,-0,2.5}\r\n"
                + "    Special: *2 { a: -1.#INF,1.#QNAN }\r\n"
                + "}\r\n";
        FbxReader.Document d = readAscii(text);

        FbxNode expected = root(
                node("FBXHeaderExtension", List.of(), leaf("FBXVersion", 6100L)),
                leaf("Strings", "a, b; {c} : d", "two\r\nlines", "", "Bône ✓", "&quot;kept&quot;"),
                leaf("Words", "T", "Y", "W", "N", "L", "U", "s"),
                leaf("Numbers", 0L, -7L, 7L, 12345678901234567890.0, 1.5, -0.5, 5.0, 1000.0, -0.025,
                        Double.POSITIVE_INFINITY, Double.NaN, Double.NaN),
                leaf("Continued", 1L, 2L, 3L, 4L),
                leaf("Content", "QUJD"),
                leaf("Key", 1924423250L, 0L, "L", 46186158000L, 10L, "L"),
                leaf("Wrapped", 1.5, 2.5, 3.5, "s"),
                leaf("NextLine", "a", "b"),
                node("BraceOnNextLine", List.of(1L),
                        leaf("Empty"),
                        leaf("EmptyBraces"),
                        node("Inline", List.of(), leaf("Child", 1L))),
                node("Arrays", List.of(),
                        leaf("Empty", (Object) new long[0]),
                        leaf("Bare", (Object) new long[0]),
                        leaf("Lines", (Object) new long[] {1, 2, 3, 4, 5}),
                        leaf("Mixed", (Object) new double[] {1, -0.0, 2.5}),
                        leaf("Special", (Object) new double[] {Double.NEGATIVE_INFINITY, Double.NaN})));
        assertThat(d.version()).isEqualTo(6100);
        assertSameTree(expected, d.root());
    }

    @Test
    void arrayCountsMustMatch() {
        assertInvalid(header() + "Vertices: *4 {\n  a: 1,2,3\n}\n", "FBX record Vertices at line 2: the array at"
                + " line 2, column 11 declares *4 values but holds 3");
        assertInvalid(header() + "Vertices: *2 {\n  a: 1,2,3\n}\n", "FBX record Vertices at line 2: the array at"
                + " line 2, column 11 declares *2 values but holds 3");
        // a huge count is never allocated: the values are counted first
        DecodeBudget budget = new DecodeBudget(1000);
        ImportException e = failure(() -> FbxReader.read((header() + "V: *9999999999 {\n a: 1\n}\n")
                .getBytes(StandardCharsets.UTF_8), ImportLimits.DEFAULT, budget));
        assertThat(e.getMessage()).isEqualTo("FBX record V at line 2: the array at line 2, column 4 declares"
                + " *9999999999 values but holds 1");
    }

    /** ufbx's synthetic_vertex_gaps (as hand-edited files have it) ends an array with a comma: read as ufbx reads it. */
    @Test
    void ufbxSyntheticTrailingCommaBeforeTheBraceEndsTheArray() {
        FbxReader.Document d = readAscii(header() + "UV: *4 {\n  a: \n  -1.3,-1.4,\n  0,0,\n}\n");
        assertThat(d.root().child("UV").doubles(0)).containsExactly(-1.3, -1.4, 0, 0);
        assertInvalid(header() + "UV: *4 {\n  a: 1,2,3,\n}\n", "FBX record UV at line 2: the array at line 2, column 5"
                + " declares *4 values but holds 3");
    }

    @Test
    void malformedArraysAreRejected() {
        assertInvalid(header() + "Vertices: *3 {\n  a: 1,x,3\n}\n",
                "FBX record Vertices at line 2: array element 1 'x' at line 3 is not a number");
        assertInvalid(header() + "Vertices: *3 {\n  a: 1,,3\n}\n",
                "FBX record Vertices at line 2: array element 1 was expected at line 3, column 8, not ','");
        assertInvalid(header() + "Vertices: *3 {\n  a: 1,2,3\n", "FBX record Vertices at line 2: the array *3 at line"
                + " 2, column 11 has the end of the file at line 4, column 1 where ',' or '}' was expected");
        assertInvalid(header() + "Vertices: *3 {\n  b: 1,2,3\n}\n", "FBX record Vertices at line 2: the array *3 at"
                + " line 2, column 11 must hold its values as 'a: …', not 'b'");
        assertInvalid(header() + "Vertices: *3 a: 1,2,3\n", "FBX record Vertices at line 2: the array *3 at line 2,"
                + " column 11 must be followed by '{', not 'a'");
        assertInvalid(header() + "Vertices: * {\n", "FBX record Vertices at line 2: the array at line 2, column 11 must"
                + " declare its size as '*' and up to 10 digits");
    }

    @Test
    void structuralErrorsNameTheLine() {
        assertInvalid(header() + "Objects: {\n  Model: 1 {\n  }\n",
                "the ASCII FBX file ends inside FBX record Objects opened at line 2 (a '}' is missing)");
        assertInvalid(header() + "}\n", "the ASCII FBX file has a '}' at line 2, column 1 that closes no record");
        assertInvalid(header() + "Objects: {\n    Version 1\n}\n", "the ASCII FBX file has the word 'Version' at line"
                + " 3, column 5 where a record ('Name:') was expected; it is followed by '1'");
        assertInvalid(header() + "Creator: \"unterminated\n\n", "FBX record Creator at line 2: the string opened at"
                + " line 2, column 10 is never closed");
        assertInvalid(header() + "Values: 1, , 2\n", "FBX record Values at line 2: value 1 was expected at line 2,"
                + " column 12, not ','");
        assertInvalid(header() + "Values: 1,\n",
                "FBX record Values at line 2: the file ends where value 1 was expected");
        assertInvalid(header() + "Bad\u0001: 1\n", "the ASCII FBX file has the word 'Bad' at line 2, column 1 where a"
                + " record ('Name:') was expected; it is followed by the byte 0x01");
    }

    @Test
    void theVersionComesFromTheHeaderExtension() {
        assertInvalid("Objects: {\n}\n", "the ASCII FBX file has no FBXHeaderExtension › FBXVersion record, so its"
                + " FBX version is unknown");
        assertInvalid("FBXHeaderExtension: {\n FBXVersion: \"7400\"\n}\n", "the ASCII FBX file's FBXHeaderExtension ›"
                + " FBXVersion must hold one integer, not 1 values [\"7400\"]");
        assertInvalid("FBXHeaderExtension: {\n FBXVersion: 74000\n}\n", "the ASCII FBX file's FBXHeaderExtension ›"
                + " FBXVersion declares FBX version 74000; FBX versions are four-digit numbers such as 7400");
        assertThat(readAscii("FBXHeaderExtension: {\n FBXVersion: 7500\n}\n").version()).isEqualTo(7500);
    }

    @Test
    void nestingIsLimitedTo256Levels() {
        StringBuilder ok = new StringBuilder(header());
        ok.append("N: {\n".repeat(256)).append("}\n".repeat(256));
        FbxNode deepest = readAscii(ok.toString()).root();
        int depth = 0;
        while (deepest.child("N") != null) {
            deepest = deepest.child("N");
            depth++;
        }
        assertThat(depth).isEqualTo(256);

        String deeper = header() + "N: {\n".repeat(257) + "}\n".repeat(257);
        assertInvalid(deeper, "FBX record N at line 258: records are nested deeper than 256 levels");
        // a million open braces fail at the limit, without recursion
        String hostile = header() + "N: {".repeat(1_000_000);
        assertInvalid(hostile, "FBX record N at line 2: records are nested deeper than 256 levels");
    }

    @Test
    void recordCountAndBudgetAreLimited() {
        byte[] bytes = CUBE.getBytes(StandardCharsets.UTF_8);
        ImportException records = failure(() -> FbxReader.read(bytes, ImportLimits.DEFAULT,
                ImportLimits.DEFAULT.newBudget(), 256, 5));
        assertThat(records.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(records.getMessage()).isEqualTo("the FBX file has more than 5 records (FBX record Version at line 10"
                + " is one too many)");

        String big = header() + "Vertices: *1000 {\n a: " + "1.5,".repeat(999) + "1.5\n}\n";
        ImportException budget = failure(() -> FbxReader.read(big.getBytes(StandardCharsets.UTF_8),
                ImportLimits.DEFAULT, new DecodeBudget(4000)));
        assertThat(budget.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(budget.getMessage()).startsWith("FBX record Vertices at line 2: array of 1000 values needs 8000"
                + " bytes, which takes the import past its limit of 4000 decoded bytes");
    }

    @Test
    void everyTruncationFailsWithAnImportExceptionOrParses() {
        byte[] bytes = CUBE.getBytes(StandardCharsets.UTF_8);
        int parsed = 0;
        for (int n = 0; n < bytes.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(bytes, n);
            try {
                read(cut);
                parsed++;
            } catch (ImportException expected) {
                // fine: any other exception fails the test
            }
        }
        // only cuts inside the trailing Connections (after the header) can parse
        assertThat(parsed).isPositive().isLessThan(bytes.length / 2);
    }

    private static String header() {
        return "FBXHeaderExtension: { FBXVersion: 7400 }\n";
    }
}
