package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.skinning.Material;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Decodes glTF materials into format-neutral {@link Material}s, each once per import (primitives that use the
 * same material share the object): name, {@code pbrMetallicRoughness} base colour, metallic and roughness factors,
 * emissive factor, alpha mode and cutoff, double-sidedness, and the base colour texture's image when it is a PNG
 * or JPEG the upload holds (a buffer view, a base64 {@code data:} URI or another uploaded file) and is sampled
 * with {@code TEXCOORD_0}. Texture samplers, texture transforms and the other textures are not carried.
 *
 * <p>Materials were not read before this decoder existed, so a material that cannot be used (a malformed field,
 * a missing image) never fails the import: it is reported as a warning and the primitive gets no material, or the
 * material no texture. Image bytes are charged to the import's {@link DecodeBudget} before they are copied.
 */
final class MaterialDecoder {

    private final GltfDocument doc;
    private final BufferResolver buffers;
    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Material[] materials;
    private final boolean[] decoded;
    private final Optional<Material.Texture>[] images;

    @SuppressWarnings("unchecked")
    MaterialDecoder(GltfDocument doc, BufferResolver buffers, SourceFile main, SourceFiles upload, DecodeBudget budget,
            ImportWarnings warnings) {
        this.doc = doc;
        this.buffers = buffers;
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
        this.materials = new Material[doc.count("materials")];
        this.decoded = new boolean[materials.length];
        this.images = new Optional[doc.count("images")];
    }

    /**
     * The {@code material} of a primitive, or {@code null} when it has none or it cannot be used (then with a
     * warning).
     *
     * @throws ImportException (invalid) when {@code material} is not an index
     */
    Material forPrimitive(JsonNode primitive, String where) {
        if (!Json.has(primitive, "material")) {
            return null;
        }
        int index = Json.reqInt(primitive, "material", where);
        if (index < 0 || index >= materials.length) {
            warnings.add(where + ": material " + index + " does not exist (there are " + materials.length
                    + "); no material is used");
            return null;
        }
        if (!decoded[index]) {
            decoded[index] = true;
            try {
                materials[index] = decode(index);
            } catch (ImportException e) {
                budget.checkTimeNow();
                if (e.kind() != ImportException.Kind.INVALID) {
                    throw e;
                }
                warnings.add(e.getMessage() + "; the material is not used");
            }
        }
        return materials[index];
    }

    private Material decode(int index) {
        String where = "material " + index;
        JsonNode m = doc.element("materials", index, "material");
        String name = Json.optString(m, "name", where);
        float[] baseColor = {1, 1, 1, 1};
        float metallic = 1;
        float roughness = 1;
        Material.Texture texture = null;
        int texCoord = 0;
        JsonNode pbr = Json.optObject(m, "pbrMetallicRoughness", where);
        if (pbr != null) {
            String pw = where + " pbrMetallicRoughness";
            float[] f = Json.optFloats(pbr, "baseColorFactor", 4, pw);
            if (f != null) {
                baseColor = unit(f, "baseColorFactor", pw);
            }
            metallic = unit(number(pbr, "metallicFactor", 1, pw), "metallicFactor", pw);
            roughness = unit(number(pbr, "roughnessFactor", 1, pw), "roughnessFactor", pw);
            JsonNode info = Json.optObject(pbr, "baseColorTexture", pw);
            if (info != null) {
                try {
                    texture = texture(info, pw + " baseColorTexture");
                    texCoord = texture == null ? 0 : Json.optInt(info, "texCoord", 0, pw + " baseColorTexture");
                } catch (ImportException e) {
                    budget.checkTimeNow();
                    if (e.kind() != ImportException.Kind.INVALID) {
                        throw e;
                    }
                    warnings.add(e.getMessage() + "; the texture is not carried");
                }
            }
        }
        float[] emissive = Json.optFloats(m, "emissiveFactor", 3, where);
        emissive = emissive == null ? new float[3] : unit(emissive, "emissiveFactor", where);
        String alpha = Json.optString(m, "alphaMode", where);
        Material.AlphaMode alphaMode = Material.AlphaMode.OPAQUE;
        if (alpha != null) {
            try {
                alphaMode = Material.AlphaMode.valueOf(alpha);
            } catch (IllegalArgumentException e) {
                throw ImportException.invalid(where + ": alphaMode '" + Json.shorten(alpha, 40)
                        + "' is not one of OPAQUE, MASK, BLEND");
            }
        }
        float cutoff = number(m, "alphaCutoff", 0.5f, where);
        if (cutoff < 0) {
            throw ImportException.invalid(where + ": alphaCutoff " + cutoff + " is negative");
        }
        boolean doubleSided = Json.optBoolean(m, "doubleSided", false, where);
        return new Material(name, baseColor, metallic, roughness, emissive, alphaMode, cutoff, doubleSided, texture,
                texCoord);
    }

    /** The image of a texture info, or {@code null} (with a warning) when it cannot be carried. */
    private Material.Texture texture(JsonNode info, String where) {
        int textureIndex = Json.reqInt(info, "index", where);
        int texCoord = Json.optInt(info, "texCoord", 0, where);
        if (texCoord < 0) {
            throw ImportException.invalid(where + ": texCoord " + texCoord + " is negative");
        }
        JsonNode texture = doc.element("textures", textureIndex, "texture");
        String tw = "texture " + textureIndex;
        if (!Json.has(texture, "source")) {
            warnings.add(tw + " has no PNG or JPEG source (only an extension's image); it is not carried");
            return null;
        }
        int image = Json.checkIndex(Json.reqInt(texture, "source", tw), images.length, "source image", tw);
        if (images[image] == null) {
            images[image] = Optional.ofNullable(image(image));
        }
        return images[image].orElse(null);
    }

    /** The bytes of image {@code index} if they are a PNG or JPEG, else {@code null} with a warning. */
    private Material.Texture image(int index) {
        String where = "image " + index;
        JsonNode image = doc.element("images", index, "image");
        byte[] bytes;
        if (Json.has(image, "bufferView")) {
            ByteBuffer data = buffers.view(Json.reqInt(image, "bufferView", where), "bufferView", where).data();
            budget.charge(data.capacity(), 1, where);
            bytes = new byte[data.capacity()];
            data.duplicate().get(0, bytes);
        } else {
            String uri = Json.optString(image, "uri", where);
            if (uri == null) {
                throw ImportException.invalid(where + " has neither a uri nor a bufferView");
            }
            if (UriReference.isDataUri(uri)) {
                bytes = decodeDataUri(uri, where);
            } else {
                Optional<SourceFile> file = UriReference.resolve(uri, where, main, upload);
                if (file.isEmpty()) {
                    return null; // already reported by the buffer resolver
                }
                budget.charge(file.get().size(), 1, where);
                bytes = file.get().bytes().clone();
            }
        }
        String mime = Material.Texture.sniff(bytes);
        if (mime == null) {
            warnings.add(where + " is neither a PNG nor a JPEG image; the texture is not carried");
            return null;
        }
        return new Material.Texture(mime, bytes);
    }

    private byte[] decodeDataUri(String uri, String where) {
        int comma = uri.indexOf(',');
        if (comma < 0 || !uri.substring(0, comma).toLowerCase(java.util.Locale.ROOT).endsWith(";base64")) {
            throw ImportException.invalid(where + ": data URI '" + Json.shorten(uri, 60) + "' is not base64-encoded");
        }
        budget.charge((uri.length() - comma - 1) / 4 * 3L + 3, 1, where + " data URI");
        try {
            return Base64.getDecoder().decode(uri.substring(comma + 1));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": data URI has invalid base64: " + e.getMessage());
        }
    }

    private static float number(JsonNode obj, String key, float def, String where) {
        JsonNode v = Json.field(obj, key);
        if (v == null) {
            return def;
        }
        if (!v.isNumber() || !Float.isFinite((float) v.doubleValue())) {
            throw ImportException.invalid(where + ": " + key + " must be a finite number, not " + Json.quote(v));
        }
        return (float) v.doubleValue();
    }

    private static float unit(float v, String key, String where) {
        if (v < 0 || v > 1) {
            throw ImportException.invalid(where + ": " + key + " " + v + " is outside 0..1");
        }
        return v;
    }

    private static float[] unit(float[] v, String key, String where) {
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0 || v[i] > 1) {
                throw ImportException.invalid(where + ": " + key + "[" + i + "] " + v[i] + " is outside 0..1");
            }
        }
        return v;
    }
}
