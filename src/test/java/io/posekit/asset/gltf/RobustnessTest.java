package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Systematic corruption of a valid asset: every failure must be a precise ImportException, never another
 * exception (NPE, ClassCast, IndexOutOfBounds, NumberFormat, Arithmetic, …), which AssetImporters would
 * only be able to report as an internal error.
 */
class RobustnessTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Imports and reports whether it failed with a proper ImportException; fails the test otherwise. */
    private static boolean importsOrFailsCleanly(SourceFile main, String context) {
        try {
            new GltfImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).doesNotStartWith("internal error").isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }

    @Test
    void everyTruncationOfAGlbFailsCleanly() {
        byte[] glb = GltfBuilder.skinnedTwoBoneStrip().toGlb();
        for (int length = 0; length < glb.length; length++) {
            assertThat(importsOrFailsCleanly(new SourceFile("a.glb", Arrays.copyOf(glb, length)), "cut at " + length))
                    .as("cut at %d", length).isTrue();
        }
    }

    @Test
    void corruptedBytesNeverLeakAnotherException() {
        byte[] glb = GltfBuilder.skinnedTwoBoneStrip().toGlb();
        for (int i = 0; i < glb.length; i++) {
            for (int value : new int[] {0x00, 0xFF, 0x7F}) {
                byte[] copy = glb.clone();
                copy[i] = (byte) value;
                importsOrFailsCleanly(new SourceFile("a.glb", copy), "byte " + i + " = " + value);
            }
        }
    }

    @Test
    void everyJsonValueReplacedByWrongValuesFailsCleanly() {
        ObjectNode original = (ObjectNode) MAPPER.readTree(GltfBuilder.skinnedTwoBoneStrip().toGltfJson());
        List<JsonNode> replacements = List.of(F.stringNode("x"), F.numberNode(-1), F.numberNode(1e10),
                F.numberNode(1.5), F.numberNode(2147483648L), F.numberNode(0), F.nullNode(), F.arrayNode(),
                F.objectNode(), F.booleanNode(true), F.numberNode(65535));
        List<Consumer<ObjectNode>> mutations = new ArrayList<>();
        collect(original, original, "", replacements, mutations);
        assertThat(mutations).hasSizeGreaterThan(1000);
        int failures = 0;
        for (int m = 0; m < mutations.size(); m++) {
            ObjectNode copy = original.deepCopy();
            mutations.get(m).accept(copy);
            byte[] json = MAPPER.writeValueAsString(copy).getBytes(StandardCharsets.UTF_8);
            if (importsOrFailsCleanly(new SourceFile("a.gltf", json), "mutation " + m)) {
                failures++;
            }
        }
        // most corruptions must be noticed (a few, e.g. a name replaced by null, are harmless)
        assertThat(failures).isGreaterThan(mutations.size() / 2);
    }

    /** Adds one mutation per (value position, replacement), addressing nodes by path from the root. */
    private static void collect(ObjectNode root, JsonNode node, String path, List<JsonNode> replacements,
            List<Consumer<ObjectNode>> out) {
        if (node.isObject()) {
            for (String name : node.propertyNames()) {
                String child = path + "/" + name;
                if (name.equals("uri")) {
                    continue; // data URIs: covered by the byte corruption test
                }
                addReplacements(child, replacements, out);
                collect(root, node.get(name), child, replacements, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String child = path + "/" + i;
                addReplacements(child, replacements, out);
                collect(root, node.get(i), child, replacements, out);
            }
        }
    }

    private static void addReplacements(String path, List<JsonNode> replacements, List<Consumer<ObjectNode>> out) {
        for (JsonNode r : replacements) {
            out.add(root -> {
                int slash = path.lastIndexOf('/');
                JsonNode parent = root.at(path.substring(0, slash));
                String last = path.substring(slash + 1);
                if (parent instanceof ObjectNode o) {
                    o.set(last, r.deepCopy());
                } else if (parent instanceof ArrayNode a) {
                    a.set(Integer.parseInt(last), r.deepCopy());
                }
            });
        }
    }
}
