package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class AssetImportersTest {

    /** An importer that records what it was given and returns a one-node scene, or fails as told. */
    private static final class FakeImporter implements AssetImporter {
        private final RuntimeException failure;
        SourceFile main;
        SourceFiles upload;

        FakeImporter(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public AssetFormat format() {
            return AssetFormat.GLTF;
        }

        @Override
        public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
            this.main = main;
            this.upload = upload;
            if (failure != null) {
                throw failure;
            }
            return new ImportScene(List.of(new ImportScene.Node("n", -1, 0, null, null, null)), List.of(), List.of(),
                    List.of(), List.of());
        }
    }

    private static SourceFile file(String name) {
        return new SourceFile(name, name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void picksTheOneModelFileAndPassesTheRestAsSiblings() throws Exception {
        FakeImporter fake = new FakeImporter(null);
        AssetImporters importers = new AssetImporters(List.of(fake), ImportLimits.DEFAULT);
        byte[] zip = ZipUnpackerTest.zip(java.util.Map.of("m/a.gltf", "x".getBytes(), "m/a.bin", "y".getBytes()));
        AssetImporters.Imported imported = importers.importUpload(List.of(new SourceFile("bundle.zip", zip), file("tex.png")));
        assertThat(imported.main().name()).isEqualTo("m/a.gltf");
        assertThat(fake.upload.files()).extracting(SourceFile::name).containsExactlyInAnyOrder("m/a.gltf", "m/a.bin", "tex.png");
        assertThat(imported.model().format()).isEqualTo(AssetFormat.GLTF);
        assertThat(imported.model().rig().nodeCount()).isEqualTo(1);
    }

    @Test
    void aModelFileOfAnUnsupportedFormatIs415() {
        AssetImporters importers = new AssetImporters(List.of(new FakeImporter(null)), ImportLimits.DEFAULT);
        assertThatThrownBy(() -> importers.importUpload(List.of(file("rig.fbx"))))
                .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED))
                .hasMessage("format 'fbx' (rig.fbx) is recognised but not supported yet; supported: gltf (.glb, .gltf, .vrm, .vrma)");
    }

    @Test
    void md5AnimationsRideAlongWithTheirMesh() {
        AssetImporters importers = new AssetImporters(List.of(new FakeImporter(null)), ImportLimits.DEFAULT);
        // the mesh is the model file; the error proves it was chosen (MD5 has no importer here)
        assertThatThrownBy(() -> importers.importUpload(List.of(file("walk.md5anim"), file("guy.md5mesh"), file("run.md5anim"))))
                .hasMessageStartingWith("format 'md5' (guy.md5mesh)");
    }

    @Test
    void anImporterBugBecomesAnInvalidFileNotACrash() {
        FakeImporter buggy = new FakeImporter(new ArrayIndexOutOfBoundsException("Index 7 out of bounds for length 3"));
        AssetImporters importers = new AssetImporters(List.of(buggy), ImportLimits.DEFAULT);
        assertThatThrownBy(() -> importers.importUpload(List.of(file("a.glb"))))
                .isInstanceOfSatisfying(ImportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
                    assertThat(e.importerBug()).isTrue();
                    assertThat(e.getCause()).isInstanceOf(ArrayIndexOutOfBoundsException.class);
                })
                .hasMessage("internal error while reading a.glb (ArrayIndexOutOfBoundsException); the file could not be imported");
    }

    @Test
    void tooManyNodesIs413() {
        AssetImporters importers = new AssetImporters(List.of(new FakeImporter(null)), new ImportLimits(1 << 20, 0, 10, 1 << 20, 100));
        assertThatThrownBy(() -> importers.importUpload(List.of(file("a.glb"))))
                .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE))
                .hasMessage("a.glb has 1 nodes; the limit is 0 (posekit.limits.nodes)");
    }

    @Test
    void theMainFileIsToldFromTheNamesAloneUnlessTheNamesAlreadyFail() throws java.io.IOException {
        AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        SourceFile gltf = new SourceFile("dir/Fox.gltf", new byte[] {'{'});
        SourceFile bin = new SourceFile("Fox.bin", new byte[] {0});
        SourceFile mesh = new SourceFile("a.md5mesh", new byte[] {1});
        SourceFile anim = new SourceFile("walk.md5anim", new byte[] {2});
        assertThat(importers.mainFileOf(List.of(bin, gltf))).contains("dir/Fox.gltf");
        assertThat(importers.mainFileOf(List.of(anim, mesh))).contains("a.md5mesh"); // animations ride along
        assertThat(importers.mainFileOf(List.of(bin))).isEmpty(); // no model: the parse says so
        assertThat(importers.mainFileOf(List.of(gltf, new SourceFile("b.dae", new byte[] {4})))).isEmpty(); // two
        // a zip's model file, from its central directory: the name the parse then imports
        java.util.Map<String, byte[]> entries = new java.util.LinkedHashMap<>();
        entries.put("cube/", new byte[0]);
        entries.put("cube/walk.md5anim", new byte[] {2});
        entries.put("cube/cube.md5mesh", new byte[] {1});
        SourceFile zip = new SourceFile("cube.zip", ZipUnpackerTest.zip(entries));
        assertThat(importers.mainFileOf(List.of(zip))).contains("cube/cube.md5mesh");
        assertThat(importers.mainFileOf(List.of(gltf, zip))).isEmpty(); // two models, one of them zipped
        assertThat(importers.mainFileOf(List.of(new SourceFile("a.zip", new byte[] {3})))).isEmpty(); // not a zip
    }

    private static final String DAE = "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">"
            + "<asset/><library_visual_scenes><visual_scene id=\"s\"><node id=\"%s\" name=\"%s\"/></visual_scene>"
            + "</library_visual_scenes><scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>";

    private static byte[] dae(String node) {
        return String.format(DAE, node, node).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A {@code .zae} (zipped COLLADA, as SketchUp, OpenCOLLADA and assimp's test models have it): a zip of the
     * {@code .dae}, its images and {@code manifest.xml}, whose {@code dae_root} names the model; read like a zip.
     */
    @Test
    void zaeZippedColladaIsReadByItsManifestsDaeRoot() throws Exception {
        AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        java.util.Map<String, byte[]> entries = new java.util.LinkedHashMap<>();
        entries.put("manifest.xml", ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<dae_root>./models/duck.dae</dae_root>\n")
                .getBytes(StandardCharsets.UTF_8));
        entries.put("models/duck.dae", dae("duck"));
        entries.put("models/duckCM.png", new byte[] {1, 2, 3});
        SourceFile zae = new SourceFile("duck.zae", ZipUnpackerTest.zip(entries));
        AssetImporters.Imported imported = importers.importUpload(List.of(zae));
        assertThat(imported.main().name()).isEqualTo("models/duck.dae");
        assertThat(imported.model().format()).isEqualTo(AssetFormat.COLLADA);
        assertThat(imported.model().rig().names()).contains("duck");
        assertThat(importers.mainFileOf(List.of(zae))).contains("models/duck.dae");

        // two COLLADA files: the manifest says which is the model
        entries.put("models/proxy.dae", dae("proxy"));
        SourceFile two = new SourceFile("duck.zae", ZipUnpackerTest.zip(entries));
        assertThat(importers.importUpload(List.of(two)).model().rig().names()).contains("duck").doesNotContain("proxy");
        // the same bytes named .zip have no manifest rule: two model files
        assertThatThrownBy(() -> importers.importUpload(List.of(new SourceFile("duck.zip", two.bytes()))))
                .hasMessage("the upload holds 2 model files (models/duck.dae, models/proxy.dae); upload one asset at a time");

        // a manifest naming what the archive lacks, or no model file, is a clear 422
        entries.put("manifest.xml", "<dae_root>gone.dae</dae_root>".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> importers.importUpload(List.of(new SourceFile("duck.zae", ZipUnpackerTest.zip(entries)))))
                .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID))
                .hasMessage("duck.zae: its manifest.xml names the model 'gone.dae', which the archive does not hold");
        entries.put("manifest.xml", "<dae_root>models/duckCM.png</dae_root>".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> importers.importUpload(List.of(new SourceFile("duck.zae", ZipUnpackerTest.zip(entries)))))
                .hasMessage("duck.zae: its manifest.xml names the model 'models/duckCM.png', which is not a model file");
    }
}
