package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.failure;
import static io.posekit.asset.collada.ColladaTestSupport.importBytes;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and broken XML: DTDs, entities, depth and size limits, malformed documents, wrong roots. */
class XmlSafetyTest {

    private static final String NS = ColladaDocument.NAMESPACE_14;
    private static final String DTD_MESSAGE = "DTDs and entity declarations are not allowed in COLLADA files";

    private static ImportException failureOf(String xml) {
        return failure(() -> importDae(xml));
    }

    @Test
    void externalEntitiesAreRejectedAndNeverFetched(@TempDir Path dir) throws IOException {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET-MARKER");
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(300);
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/";
            String[] attacks = {
                "<?xml version=\"1.0\"?><!DOCTYPE COLLADA SYSTEM \"file:///etc/passwd\"><COLLADA xmlns=\"" + NS
                        + "\" version=\"1.4.1\"/>",
                "<?xml version=\"1.0\"?><!DOCTYPE COLLADA [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>"
                        + "<COLLADA version=\"1.4.1\"><asset><up_axis>&xxe;</up_axis></asset></COLLADA>",
                "<?xml version=\"1.0\"?><!DOCTYPE COLLADA SYSTEM \"" + url + "evil.dtd\"><COLLADA version=\"1.4.1\"/>",
                "<?xml version=\"1.0\"?><!DOCTYPE COLLADA [<!ENTITY % remote SYSTEM \"" + url + "p.dtd\"> %remote;]>"
                        + "<COLLADA version=\"1.4.1\"/>",
                "<?xml version=\"1.0\"?><!DOCTYPE COLLADA [<!ENTITY x SYSTEM \"" + url + "x\">]>"
                        + "<COLLADA version=\"1.4.1\"><asset><up_axis>&x;</up_axis></asset></COLLADA>",
            };
            for (String attack : attacks) {
                ImportException e = failureOf(attack);
                assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
                assertThat(e.getMessage()).startsWith(DTD_MESSAGE).doesNotContain("TOP-SECRET").doesNotContain("root:");
            }
            try (Socket s = server.accept()) {
                fail("the importer connected to " + url + " from " + s.getRemoteSocketAddress());
            } catch (SocketTimeoutException expected) {
                // nothing connected: no external entity or DTD was fetched
            }
        }
    }

    @Test
    void billionLaughsIsRejectedFast() {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE COLLADA [<!ENTITY l0 \"lol\">");
        for (int i = 1; i <= 10; i++) {
            s.append("<!ENTITY l").append(i).append(" \"");
            for (int k = 0; k < 10; k++) {
                s.append("&l").append(i - 1).append(';');
            }
            s.append("\">");
        }
        s.append("]><COLLADA version=\"1.4.1\"><asset><up_axis>&l10;</up_axis></asset></COLLADA>");
        long start = System.nanoTime();
        ImportException e = failureOf(s.toString());
        assertThat(e.getMessage()).startsWith(DTD_MESSAGE + " (DOCTYPE at line 1, column ");
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(2.0);
    }

    @Test
    void anInvalidCharacterInTheDoctypeIsReportedAsADtd() {
        // found by the upload fuzzer: the JDK's parser has no message for this error and threw
        // MissingResourceException while skipping the internal subset
        assertThat(failureOf("<?xml version=\"1.0\"?><!DOCTYPE COLLADA [<!ENTITY e \"x\0x\">]><COLLADA/>").getMessage())
                .isEqualTo(DTD_MESSAGE + " (DOCTYPE with an invalid character at line 1, column 54)");
        assertThat(failureOf("<!DOCTYPE COLLADA [<!-- \u0001 -->]>\n<COLLADA/>").getMessage())
                .isEqualTo(DTD_MESSAGE + " (DOCTYPE with an invalid character at line 1, column 25)");
    }

    @Test
    void entityReferencesWithoutADtdAreRejectedButPredefinedOnesWork() {
        ImportException e = failureOf("<COLLADA version=\"1.4.1\"><asset>&foo;</asset></COLLADA>");
        assertThat(e.getMessage()).startsWith(DTD_MESSAGE + " (entity reference &foo; at line 1");
        ImportScene ok = importDae("<COLLADA version=\"1.4.1\"><library_visual_scenes><visual_scene id=\"s\">"
                + "<node name=\"a&amp;b &lt;&#65;&gt;\"/></visual_scene></library_visual_scenes></COLLADA>");
        assertThat(ok.nodes().get(1).name()).isEqualTo("a&b <A>");
    }

    @Test
    void deeplyNestedDocumentsAreRejectedWithoutReadingThemWhole() {
        byte[] head = ("<COLLADA xmlns=\"" + NS + "\" version=\"1.4.1\">").getBytes(StandardCharsets.US_ASCII);
        byte[] doc = new byte[200_000_000];
        System.arraycopy(head, 0, doc, 0, head.length);
        byte[] open = "<a>".getBytes(StandardCharsets.US_ASCII);
        for (int i = head.length; i + 3 <= doc.length; i += 3) {
            doc[i] = open[0];
            doc[i + 1] = open[1];
            doc[i + 2] = open[2];
        }
        for (int i = doc.length - (doc.length - head.length) % 3; i < doc.length; i++) {
            doc[i] = ' ';
        }
        long start = System.nanoTime();
        ImportException e = failure(() -> importBytes(doc));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("XML elements are nested deeper than 256 levels (at line 1, column "
                + (head.length + 3 * 255 + 4) + "); the limit is 256 (posekit.limits.xml-depth)");
        assertThat(seconds).isLessThan(5.0);
    }

    @Test
    void nestingUpTo256LevelsIsAccepted() {
        String open = "<COLLADA version=\"1.4.1\"><library_visual_scenes><visual_scene id=\"s\"><extra>";
        String deep = open + "<x>".repeat(252) + "</x>".repeat(252) + "</extra></visual_scene></library_visual_scenes></COLLADA>";
        assertThat(importDae(deep).nodes()).hasSize(1);
        String tooDeep = open + "<x>".repeat(253) + "</x>".repeat(253) + "</extra></visual_scene></library_visual_scenes></COLLADA>";
        assertThat(failureOf(tooDeep).getMessage()).startsWith("XML elements are nested deeper than 256 levels");
    }

    @Test
    void elementCountIsLimitedWhileStreaming() {
        XmlTreeReader reader = new XmlTreeReader(256, 10);
        byte[] ok = ("<r>" + "<a/>".repeat(9) + "</r>").getBytes(StandardCharsets.UTF_8);
        assertThat(reader.parse(ok).root().children()).hasSize(9);
        byte[] many = ("<r>" + "<a/>".repeat(10) + "</r>").getBytes(StandardCharsets.UTF_8);
        ImportException e = failure(() -> reader.parse(many));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("the document has more than 10 XML elements (posekit.limits.xml-elements)");
        assertThat(ImportLimits.DEFAULT.maxXmlElements()).isEqualTo(5_000_000);
        assertThat(ImportLimits.DEFAULT.maxXmlDepth()).isEqualTo(256);
    }

    @Test
    void malformedXmlIsReportedWithItsPosition() {
        ImportException e = failureOf("<COLLADA version=\"1.4.1\">\n  <asset>\n</COLLADA>");
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).isEqualTo("malformed XML at line 3, column 3: The element type \"asset\" must be "
                + "terminated by the matching end-tag \"</asset>\".");
        assertThat(failureOf("not xml at all").getMessage()).startsWith("malformed XML at line 1, column 1: ");
        assertThat(failure(() -> importBytes(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0, 1, 2})).getMessage())
                .startsWith("malformed XML");
        byte[] badUtf8 = "<COLLADA version=\"1.4.1\">\n<asset>x\u00c3</asset></COLLADA>".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(failure(() -> importBytes(badUtf8)).getMessage()).isEqualTo("malformed XML: byte 34 is not valid UTF-8");
        String latin1 = new DaeBuilder().node("<node name=\"caf\u00e9\"/>").toXml().replace("utf-8", "ISO-8859-1");
        assertThat(importBytes(latin1.getBytes(StandardCharsets.ISO_8859_1)).nodes().get(1).name()).isEqualTo("caf\u00e9");
        byte[] bom = ("\uFEFF" + new DaeBuilder().toXml()).getBytes(StandardCharsets.UTF_8);
        assertThat(importBytes(bom).nodes()).hasSize(1);
        assertThat(failure(() -> importDae("<?xml version=\"1.0\" encoding=\"x-nonsense\"?><COLLADA/>")).getMessage())
                .isEqualTo("the XML declaration names the encoding 'x-nonsense', which is not supported");
        assertThat(failureOf("<COLLADA version=\"1.4.1\"/><second/>").getMessage()).startsWith("malformed XML at line 1");
    }

    @Test
    void theRootMustBeColladaInItsNamespace() {
        assertInvalid(() -> importDae("<collada version=\"1.4.1\"/>"), "the root element is <collada>, not <COLLADA>");
        assertInvalid(() -> importDae("<COLLADA xmlns=\"urn:other\" version=\"1.4.1\"/>"),
                "the <COLLADA> root is in namespace 'urn:other', not COLLADA's (" + ColladaDocument.NAMESPACE_14 + " or "
                        + ColladaDocument.NAMESPACE_15 + ")");
        // no namespace, 1.4 and 1.5 namespaces are all fine
        for (String ns : new String[] {null, ColladaDocument.NAMESPACE_14, ColladaDocument.NAMESPACE_15}) {
            ImportScene s = importDae(new DaeBuilder().namespace(ns).version(ns == ColladaDocument.NAMESPACE_15 ? "1.5.0" : "1.4.1"));
            assertThat(s.warnings()).isEmpty();
        }
        assertThat(importDae(new DaeBuilder().version("2.0")).warnings())
                .containsExactly("COLLADA version '2.0' is not 1.4.x or 1.5.x; the file is read as COLLADA 1.4.1");
        assertThat(importDae(new DaeBuilder().version(null)).warnings())
                .containsExactly("COLLADA version (none) is not 1.4.x or 1.5.x; the file is read as COLLADA 1.4.1");
    }

    @Test
    void otherEncodingsAreDecoded() {
        String xml = new DaeBuilder().node("<node name=\"Grüße\"/>").toXml().replace("encoding=\"utf-8\"", "encoding=\"UTF-16\"");
        ImportScene s = importBytes(xml.getBytes(StandardCharsets.UTF_16));
        assertThat(s.nodes().get(1).name()).isEqualTo("Grüße");
    }

    @Test
    void everyTruncationFailsCleanly() {
        byte[] doc = RobustnessFixture.document();
        assertThat(importBytes(doc).clips()).hasSize(1);
        for (int length = 0; length < doc.length; length += 3) {
            RobustnessFixture.importsOrFailsCleanly(Arrays.copyOf(doc, length), "cut at " + length);
        }
    }

    @Test
    void corruptedBytesNeverLeakAnotherException() {
        byte[] doc = RobustnessFixture.document();
        byte[] replacements = {'0', '9', '-', '#', '<', '"', ' ', 'x', (byte) 0xC3};
        for (int i = 0; i < doc.length; i += 2) {
            byte r = replacements[i % replacements.length];
            byte[] copy = doc.clone();
            copy[i] = r;
            RobustnessFixture.importsOrFailsCleanly(copy, "byte " + i + " = " + (char) r);
        }
    }
}
