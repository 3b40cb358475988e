package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SourceFilesTest {

    private final SourceFile gltf = new SourceFile("model/fox.gltf", new byte[] {1});
    private final SourceFile bin = new SourceFile("model/buffers/fox.bin", new byte[] {2});
    private final SourceFile top = new SourceFile("tex.png", new byte[] {3});
    private final SourceFiles files = new SourceFiles(List.of(gltf, bin, top));

    @Test
    void resolvesRelativeToTheReferringFile() {
        assertThat(files.resolve(gltf, "buffers/fox.bin")).contains(bin);
        assertThat(files.resolve(gltf, "./buffers/../buffers/fox.bin")).contains(bin);
        assertThat(files.resolve(gltf, "../tex.png")).contains(top);
    }

    @Test
    void fallsBackToAUniqueBaseName() {
        SourceFiles flat = new SourceFiles(List.of(new SourceFile("fox.gltf", new byte[0]), new SourceFile("fox.bin", new byte[0])));
        assertThat(flat.resolve(flat.files().getFirst(), "data/fox.bin")).map(SourceFile::name).contains("fox.bin");
        SourceFiles twice = new SourceFiles(List.of(gltf, bin, new SourceFile("other/fox.bin", new byte[0])));
        assertThat(twice.resolve(gltf, "x/fox.bin")).isEmpty();
    }

    /**
     * An FBX written on Windows names {@code MP5SIL.BMP}; the upload holds {@code mp5sil.bmp} (assimp's test models):
     * matched ignoring case when no name matches exactly, and only when one file does.
     */
    @Test
    void windowsExportersUpperCaseNamesFindTheUniqueFileOfAnyCase() {
        SourceFile fbx = new SourceFile("guns/mp5.fbx", new byte[] {1});
        SourceFile lower = new SourceFile("guns/mp5sil.bmp", new byte[] {2});
        SourceFiles upload = new SourceFiles(List.of(fbx, lower));
        assertThat(upload.resolve(fbx, "MP5SIL.BMP")).contains(lower);
        assertThat(upload.resolve(fbx, "Textures/Mp5Sil.bmp")).contains(lower); // by base name, ignoring case
        SourceFile upper = new SourceFile("guns/MP5SIL.BMP", new byte[] {3});
        SourceFiles both = new SourceFiles(List.of(fbx, lower, upper));
        assertThat(both.resolve(fbx, "MP5SIL.BMP")).contains(upper); // the exact name first
        assertThat(both.resolve(fbx, "mp5sil.bmp")).contains(lower);
        assertThat(both.resolve(fbx, "Mp5Sil.Bmp")).isEmpty(); // two files match ignoring case: neither is chosen
    }

    @Test
    void neverResolvesOutsideTheUpload() {
        assertThat(files.resolve(gltf, "/etc/passwd")).isEmpty();
        assertThat(files.resolve(gltf, "../../tex.png")).isEmpty();
        assertThat(files.resolve(gltf, "C:/tex.png")).isEmpty();
        assertThat(files.resolve(gltf, "file:tex.png")).isEmpty();
        assertThat(files.resolve(gltf, "")).isEmpty();
    }
}
