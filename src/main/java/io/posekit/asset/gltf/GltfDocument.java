package io.posekit.asset.gltf;

import java.io.ByteArrayInputStream;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.util.LinkedHashSet;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parsed JSON of a glTF 2.0 asset: the root object, checked for {@code asset.version} 2.x and for
 * required extensions this importer cannot honour, with checked access to the top-level arrays
 * ({@code accessors}, {@code nodes}, …) whose elements must be JSON objects.
 */
final class GltfDocument {

    /** Maximum JSON nesting depth accepted (a glTF document needs far less). */
    static final int MAX_NESTING_DEPTH = 256;

    /**
     * Required extensions this importer honours (plus every {@code KHR_materials_*}): geometry storage it decodes
     * (quantization, meshopt, Draco), and texture and light extensions that do not change the rig, meshes or clips.
     */
    private static final Set<String> SUPPORTED_REQUIRED = Set.of("KHR_mesh_quantization", "KHR_texture_transform",
            "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif", "KHR_lights_punctual",
            "EXT_meshopt_compression", "KHR_meshopt_compression", DracoPrimitive.EXTENSION);

    private final JsonNode root;

    private GltfDocument(JsonNode root) {
        this.root = root;
    }

    /**
     * Parses {@code length} bytes of UTF-8 JSON at {@code offset} (a leading byte order mark is skipped) and
     * checks the asset header.
     *
     * @param what how to name the JSON in messages, e.g. {@code glTF JSON} or {@code GLB JSON chunk}
     * @throws ImportException (invalid) when the JSON is malformed (the message carries Jackson's line and
     *     column), nests deeper than {@value #MAX_NESTING_DEPTH}, is not an object, lacks {@code asset}, has
     *     an {@code asset.version} whose major version is not 2, or requires unsupported extensions
     */
    static GltfDocument parse(byte[] bytes, int offset, int length, String what) {
        return parse(bytes, offset, length, what, new DecodeBudget(Long.MAX_VALUE));
    }

    /** {@link #parse(byte[], int, int, String)} under the import's parse-time deadline. */
    static GltfDocument parse(byte[] bytes, int offset, int length, String what, DecodeBudget budget) {
        if (length >= 3 && (bytes[offset] & 0xFF) == 0xEF && (bytes[offset + 1] & 0xFF) == 0xBB
                && (bytes[offset + 2] & 0xFF) == 0xBF) {
            offset += 3;
            length -= 3;
        }
        JsonNode root = readTree(bytes, offset, length, what, budget);
        if (root == null || !root.isObject()) {
            throw ImportException.invalid(what + " must be a JSON object, not " + Json.quote(root));
        }
        GltfDocument doc = new GltfDocument(root);
        doc.checkAsset();
        doc.checkRequiredExtensions();
        return doc;
    }

    /**
     * The reader of every glTF JSON: nesting limited to {@value #MAX_NESTING_DEPTH}; strings as long as the document
     * (which is within the upload limit: the only bound a string or the document can have is the bytes there are).
     * One for all imports (thread-safe once built): building a mapper was 4 % of a BrainStem import and most of a small
     * glTF's.
     */
    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .maxStringLength(Integer.MAX_VALUE)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static JsonNode readTree(byte[] bytes, int offset, int length, String what, DecodeBudget budget) {
        try {
            // through a stream that checks the time whenever the parser fetches more bytes
            return MAPPER.readTree(new ByteArrayInputStream(bytes, offset, length) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    budget.checkTimeNow();
                    return super.read(b, off, Math.min(len, 64 * 1024));
                }
            });
        } catch (JacksonException e) {
            if (e.getCause() instanceof ImportException timeUp) {
                throw timeUp;
            }
            throw ImportException.invalid(what + " is malformed" + location(e) + ": " + firstLine(e.getOriginalMessage()));
        }
    }

    private static String location(JacksonException e) {
        TokenStreamLocation loc = e.getLocation();
        if (loc == null || loc == TokenStreamLocation.NA || loc.getLineNr() < 0) {
            return "";
        }
        return " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable JSON";
        }
        int nl = message.indexOf('\n');
        return Json.shorten(nl < 0 ? message : message.substring(0, nl), 300);
    }

    private void checkAsset() {
        JsonNode asset = Json.field(root, "asset");
        if (asset == null) {
            throw ImportException.invalid("glTF JSON has no asset object (required, with asset.version \"2.0\")");
        }
        if (!asset.isObject()) {
            throw ImportException.invalid("glTF asset must be an object, not " + Json.quote(asset));
        }
        String version = Json.optString(asset, "version", "asset");
        if (version == null) {
            throw ImportException.invalid("asset.version is required");
        }
        if (majorVersion(version) != 2) {
            throw ImportException.invalid("asset.version '" + Json.shorten(version, 40) + "' is not glTF 2.x");
        }
        String minVersion = Json.optString(asset, "minVersion", "asset");
        if (minVersion != null && !minVersion.equals("2.0")) {
            throw ImportException.unsupported("asset.minVersion '" + Json.shorten(minVersion, 40)
                    + "' is above glTF 2.0, the version this importer reads");
        }
    }

    /** The major version of {@code "<major>.<minor>"}, or -1 when it is not in that form. */
    private static int majorVersion(String version) {
        int dot = version.indexOf('.');
        if (dot <= 0 || dot > 4 || dot == version.length() - 1) {
            return -1;
        }
        for (int i = 0; i < version.length(); i++) {
            if (i != dot && !Character.isDigit(version.charAt(i))) {
                return -1;
            }
        }
        return Integer.parseInt(version.substring(0, dot));
    }

    private void checkRequiredExtensions() {
        JsonNode required = Json.optArray(root, "extensionsRequired", "glTF");
        if (required == null) {
            return;
        }
        Set<String> unsupported = new LinkedHashSet<>();
        for (int i = 0; i < required.size(); i++) {
            JsonNode e = required.get(i);
            if (!e.isString()) {
                throw ImportException.invalid("extensionsRequired[" + i + "] must be a string, not " + Json.quote(e));
            }
            String name = e.stringValue();
            if (!SUPPORTED_REQUIRED.contains(name) && !name.startsWith("KHR_materials_")) {
                unsupported.add(Json.shorten(name, 80));
            }
        }
        if (!unsupported.isEmpty()) {
            throw ImportException.invalid("required extension" + (unsupported.size() == 1 ? " " : "s ")
                    + String.join(", ", unsupported) + (unsupported.size() == 1 ? " is" : " are") + " not supported");
        }
    }

    /** The root object. */
    JsonNode root() {
        return root;
    }

    /** Number of elements of the top-level array {@code name} ({@code accessors}, …); 0 when absent. */
    int count(String name) {
        JsonNode array = Json.optArray(root, name, "glTF");
        return array == null ? 0 : array.size();
    }

    /**
     * Element {@code index} of the top-level array {@code name}, which must exist and be a JSON object.
     *
     * @param label the singular element name for messages, e.g. {@code accessor}
     */
    JsonNode element(String name, int index, String label) {
        JsonNode array = Json.optArray(root, name, "glTF");
        int size = array == null ? 0 : array.size();
        if (index < 0 || index >= size) {
            throw ImportException.invalid(label + " " + index + " does not exist (there are " + size + ")");
        }
        JsonNode e = array.get(index);
        if (!e.isObject()) {
            throw ImportException.invalid(label + " " + index + " must be a JSON object, not " + Json.quote(e));
        }
        return e;
    }
}
