package io.posekit.asset.x;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.x.XTokens.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the data objects posekit uses from a token stream into an {@link XDocument}, the same way for text and
 * binary data. Templates and every other data object are skipped by matching braces (and, in binary data, by the
 * lengths of their records); references {@code { name }} are kept where they mean something (a Frame's mesh
 * instance, an Animation's frame) and skipped elsewhere.
 *
 * <p>Read: {@code Frame} (nested), {@code FrameTransformMatrix}, {@code Mesh} (in a Frame or at the top level) with
 * {@code MeshNormals}, {@code MeshTextureCoords}, {@code MeshVertexColors}, {@code XSkinMeshHeader} and
 * {@code SkinWeights}, {@code MeshMaterialList} and {@code Material} (in the list or at the top level, with
 * {@code TextureFilename}), {@code AnimTicksPerSecond}, {@code AnimationSet}, {@code Animation} and
 * {@code AnimationKey}. Ignored: {@code VertexDuplicationIndices},
 * {@code DeclData}, {@code FVFData}, {@code AnimationOptions} and anything unknown.
 *
 * <p>Bounds: every count is checked against the bytes left before anything is allocated for it and charged to
 * the {@link DecodeBudget}; every index is checked against what it indexes; objects nest at most
 * {@value #MAX_DEPTH} deep; there are at most {@link ImportLimits#maxNodes()} frames.
 */
final class XParser {

    /** The deepest nesting of data objects (and braces within skipped objects). */
    static final int MAX_DEPTH = 256;

    private final XTokens t;
    private final ImportLimits limits;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final XDocument doc = new XDocument();
    private int depth;

    XParser(XTokens tokens, ImportLimits limits, DecodeBudget budget, ImportWarnings warnings) {
        this.t = tokens;
        this.limits = limits;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * Reads the whole document.
     *
     * @throws ImportException (invalid) for malformed data, (too large) past a limit
     */
    XDocument parse() {
        while (true) {
            budget.checkTime();
            Kind k = t.peek();
            if (k == Kind.END) {
                break;
            }
            if (k != Kind.WORD) {
                throw ImportException.invalid("expected a template or data object at " + t.location() + ", found "
                        + t.describeNext());
            }
            String id = t.take();
            switch (id) {
                case "Frame" -> frame(-1);
                case "Mesh" -> mesh(-1);
                case "AnimTicksPerSecond" -> ticksPerSecond();
                case "AnimationSet" -> animationSet();
                case "Material" -> doc.materials.add(material("Material #" + doc.materials.size()));
                default -> skipObject(id);
            }
        }
        if (t.nonNumbers() > 0) {
            warnings.add(t.nonNumbers() + " values written as 1.#IND00 or 1.#QNAN0 (a C runtime's NaN) were read as 0");
        }
        return doc;
    }

    // ---- structure -------------------------------------------------------------------------------------------

    /** Reads a data object's header {@code [name] [guid] {}, enters it and returns the name (or {@code null}). */
    private String open(String type) {
        String name = null;
        if (t.peek() == Kind.WORD) {
            name = t.take();
        }
        if (t.peek() == Kind.GUID) {
            t.skip();
        }
        if (t.peek() != Kind.OPEN) {
            throw ImportException.invalid("expected '{' after " + type + (name == null ? "" : " " + XTokens.quote(name))
                    + " at " + t.location() + ", found " + t.describeNext());
        }
        t.skip();
        enter();
        return name;
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw ImportException.invalid("data objects nest deeper than " + MAX_DEPTH + " levels at " + t.location());
        }
    }

    /** Expects the {@code }} that closes a data object without children. */
    private void close(String what) {
        if (t.peek() != Kind.CLOSE) {
            throw ImportException.invalid(what + ": expected '}' at " + t.location() + ", found " + t.describeNext());
        }
        t.skip();
        depth--;
    }

    /**
     * At a position where a child object or the closing brace may come: consumes the brace and returns true, or
     * returns false for anything else.
     */
    private boolean closed(String where, String openedAt) {
        budget.checkTime();
        Kind k = t.peek();
        if (k == Kind.CLOSE) {
            t.skip();
            depth--;
            return true;
        }
        if (k == Kind.END) {
            throw ImportException.invalid(where + " (opened at " + openedAt + ") is not closed: the data ends at "
                    + t.location());
        }
        return false;
    }

    /** Reads a reference {@code { name }} (also {@code { name <guid> }} or {@code { <guid> }}). */
    private String reference(String where) {
        t.skip();
        enter();
        String name = null;
        if (t.peek() == Kind.WORD) {
            name = t.take();
        }
        if (t.peek() == Kind.GUID) {
            t.skip();
        }
        if (t.peek() != Kind.CLOSE) {
            throw ImportException.invalid(where + ": a reference at " + t.location() + " must be '{ name }', found "
                    + t.describeNext() + " after its name");
        }
        t.skip();
        depth--;
        return name;
    }

    /** Skips a whole data object (or template) whose identifier was just read. */
    private void skipObject(String id) {
        String openedAt = t.location();
        open(id);
        int level = 1;
        while (level > 0) {
            budget.checkTime();
            switch (t.peek()) {
                case END -> throw ImportException.invalid(id + " (opened at " + openedAt
                        + ") is not closed: the data ends at " + t.location());
                case OPEN -> {
                    t.skip();
                    enter();
                    level++;
                }
                case CLOSE -> {
                    t.skip();
                    depth--;
                    level--;
                }
                default -> t.skip();
            }
        }
    }

    /** A child object this parser does not read: skipped; a stray data value there is an error. */
    private void child(String where) {
        Kind k = t.peek();
        if (k == Kind.OPEN) {
            reference(where);
            return;
        }
        if (k != Kind.WORD) {
            throw ImportException.invalid(where + ": found " + t.describeNext() + " at " + t.location()
                    + " where a data object or '}' should be");
        }
        String at = t.location();
        String id = t.take();
        if (!id.isEmpty() && (Character.isDigit(id.charAt(0)) || id.charAt(0) == '-' || id.charAt(0) == '+'
                || id.charAt(0) == '.')) {
            throw ImportException.invalid(where + ": unexpected value " + XTokens.quote(id) + " at " + at
                    + " where a data object or '}' should be");
        }
        skipObject(id);
    }

    // ---- frames ----------------------------------------------------------------------------------------------

    private void frame(int parent) {
        String openedAt = t.location();
        String name = open("Frame");
        int index = doc.frames.size();
        if (index >= limits.maxNodes()) {
            throw ImportException.tooLarge("the file has more than " + limits.maxNodes() + " frames; the limit is "
                    + limits.maxNodes() + " nodes (" + ImportLimits.NODES + ")");
        }
        String where = "Frame " + (name != null && !name.isEmpty() ? XTokens.quote(name) : "#" + index);
        XDocument.Frame frame = new XDocument.Frame(name, parent, where);
        doc.frames.add(frame);
        while (!closed(where, openedAt)) {
            if (t.peek() == Kind.OPEN) {
                String at = t.location();
                String ref = reference(where);
                if (ref != null) {
                    doc.frameReferences.add(new XDocument.Reference(index, ref, where + " at " + at));
                }
                continue;
            }
            if (t.peek() != Kind.WORD) {
                child(where);
                continue;
            }
            switch (t.peekWord()) {
                case "Frame" -> {
                    t.skip();
                    frame(index);
                }
                case "FrameTransformMatrix" -> {
                    t.skip();
                    frameTransform(frame);
                }
                case "Mesh" -> {
                    t.skip();
                    mesh(index);
                }
                default -> child(where);
            }
        }
    }

    private void frameTransform(XDocument.Frame frame) {
        String what = frame.where + " FrameTransformMatrix";
        open("FrameTransformMatrix");
        float[] m = new float[16];
        for (int i = 0; i < 16; i++) {
            m[i] = t.readFloat(what);
        }
        close(what);
        if (frame.matrix != null) {
            warnings.add(frame.where + " has several FrameTransformMatrix objects; the last one is used");
        }
        frame.matrix = m;
    }

    // ---- meshes ----------------------------------------------------------------------------------------------

    private void mesh(int frame) {
        String openedAt = t.location();
        String name = open("Mesh");
        int index = doc.meshes.size();
        String where = name != null && !name.isEmpty() ? "Mesh " + XTokens.quote(name) : "Mesh #" + index;
        XDocument.Mesh m = new XDocument.Mesh(name, where, frame);
        doc.meshes.add(m);
        long vertices = t.readInt(where + " vertex count");
        t.requireData(vertices, 0, 3, where + " vertices");
        m.positions = floats(3 * vertices, where + " vertex positions");
        long faces = t.readInt(where + " face count");
        t.requireData(faces, 1, 0, where + " faces");
        budget.charge(faces + 1, 4, where + " faces");
        int[] start = new int[(int) faces + 1];
        GrowableInts indices = new GrowableInts((int) Math.min(3 * faces, 1 << 16), budget, where + " face indices");
        String countWhat = where + " face index count";
        String indexWhat = where + " face vertex index";
        for (int f = 0; f < faces; f++) {
            budget.checkTime();
            long n = t.readInt(countWhat);
            if (n < 0 || n * t.minBytesPerInt() > t.remainingBytes()) {
                throw ImportException.invalid(where + ": face " + f + " claims " + n + " indices (" + t.location()
                        + "), more than the " + t.remainingBytes() + " bytes left in the data can hold");
            }
            for (int c = 0; c < n; c++) {
                long v = t.readInt(indexWhat);
                if (v < 0 || v >= vertices) {
                    throw ImportException.invalid(where + ": face " + f + " refers to vertex " + v + " of " + vertices
                            + " (" + t.location() + ")");
                }
                indices.add((int) v);
            }
            start[f + 1] = indices.size();
        }
        m.faceStart = start;
        m.faceIndices = indices.toArray();
        while (!closed(where, openedAt)) {
            if (t.peek() != Kind.WORD) {
                child(where);
                continue;
            }
            switch (t.peekWord()) {
                case "MeshNormals" -> {
                    t.skip();
                    meshNormals(m);
                }
                case "MeshTextureCoords" -> {
                    t.skip();
                    textureCoordinates(m);
                }
                case "MeshVertexColors" -> {
                    t.skip();
                    vertexColors(m);
                }
                case "SkinWeights" -> {
                    t.skip();
                    skinWeights(m);
                }
                case "XSkinMeshHeader" -> {
                    t.skip();
                    skinMeshHeader(m);
                }
                case "MeshMaterialList" -> {
                    t.skip();
                    materialList(m);
                }
                default -> child(where);
            }
        }
    }

    private float[] floats(long count, String what) {
        budget.charge(count, 4, what);
        float[] out = new float[(int) count];
        for (int i = 0; i < out.length; i++) {
            budget.checkTime();
            out[i] = t.readFloat(what);
        }
        return out;
    }

    /**
     * {@code MeshMaterialList}: material count, face index count, the faces' material indices, then the materials
     * (Material objects or {@code { name }} references), as many as the count.
     */
    private void materialList(XDocument.Mesh m) {
        String where = m.where + " MeshMaterialList";
        String openedAt = t.location();
        open("MeshMaterialList");
        long materials = t.readInt(where + " material count");
        long count = t.readInt(where + " face index count");
        if (count > m.faceCount()) {
            throw ImportException.invalid(where + " lists " + count + " face materials but the mesh has "
                    + m.faceCount() + " faces (" + t.location() + ")");
        }
        t.requireData(count, 1, 0, where + " face materials");
        budget.charge(count, 4, where + " face materials");
        int[] faces = new int[(int) count];
        for (int f = 0; f < count; f++) {
            budget.checkTime();
            long v = t.readInt(where + " face material");
            if (v < 0 || v >= materials) {
                throw ImportException.invalid(where + ": face " + f + " has material " + v + " of " + materials + " ("
                        + t.location() + ")");
            }
            faces[f] = (int) v;
        }
        List<XDocument.Material> list = new ArrayList<>();
        List<String> references = new ArrayList<>();
        while (!closed(where, openedAt)) {
            if (t.peek() == Kind.OPEN) {
                references.add(reference(where));
                list.add(null);
            } else if (t.peek() == Kind.WORD && t.peekWord().equals("Material")) {
                t.skip();
                list.add(material(where + " material " + list.size()));
                references.add(null);
            } else {
                child(where);
            }
        }
        if (list.size() != materials) {
            warnings.add(where + " declares " + materials + " materials but holds " + list.size() + "; faces of a"
                    + " material it does not hold get none");
        }
        if (m.materialList != null) {
            warnings.add(m.where + " has several MeshMaterialList objects; the first one is used");
            return;
        }
        m.materialList = new XDocument.MaterialList(faces, list, references, where);
    }

    /** A Material: face colour (RGBA), power, specular (RGB), emissive (RGB), and an optional TextureFilename. */
    private XDocument.Material material(String fallback) {
        String openedAt = t.location();
        String name = open("Material");
        String where = name != null && !name.isEmpty() ? "Material " + XTokens.quote(name) : fallback;
        float[] face = new float[4];
        for (int c = 0; c < 4; c++) {
            face[c] = t.readFloat(where + " face colour");
        }
        float power = t.readFloat(where + " power");
        float[] specular = new float[3];
        float[] emissive = new float[3];
        for (int c = 0; c < 3; c++) {
            specular[c] = t.readFloat(where + " specular colour");
        }
        for (int c = 0; c < 3; c++) {
            emissive[c] = t.readFloat(where + " emissive colour");
        }
        String texture = null;
        while (!closed(where, openedAt)) {
            if (t.peek() == Kind.WORD && (t.peekWord().equals("TextureFilename")
                    || t.peekWord().equals("TextureFileName"))) {
                t.skip();
                String what = where + " TextureFilename";
                open("TextureFilename");
                String file = t.readString(what);
                close(what);
                texture = texture == null ? file : texture;
            } else {
                child(where);
            }
        }
        return new XDocument.Material(name, face, power, specular, emissive, texture, where);
    }

    private void meshNormals(XDocument.Mesh m) {
        String where = m.where + " MeshNormals";
        open("MeshNormals");
        long count = t.readInt(where + " normal count");
        t.requireData(count, 0, 3, where + " normals");
        float[] normals = floats(3 * count, where + " normals");
        long faces = t.readInt(where + " face count");
        if (faces != m.faceCount()) {
            throw ImportException.invalid(where + " has " + faces + " faces but the mesh has " + m.faceCount() + " ("
                    + t.location() + ")");
        }
        budget.charge(m.faceIndices.length, 4, where + " face indices");
        int[] indices = new int[m.faceIndices.length];
        String countWhat = where + " face index count";
        String indexWhat = where + " face normal index";
        for (int f = 0; f < faces; f++) {
            budget.checkTime();
            long n = t.readInt(countWhat);
            int size = m.faceStart[f + 1] - m.faceStart[f];
            if (n != size) {
                throw ImportException.invalid(where + ": face " + f + " has " + n + " indices but the mesh's face " + f
                        + " has " + size + " (" + t.location() + ")");
            }
            for (int c = 0; c < size; c++) {
                long v = t.readInt(indexWhat);
                if (v < 0 || v >= count) {
                    throw ImportException.invalid(where + ": face " + f + " refers to normal " + v + " of " + count
                            + " (" + t.location() + ")");
                }
                indices[m.faceStart[f] + c] = (int) v;
            }
        }
        close(where);
        if (m.normals != null) {
            warnings.add(m.where + " has several MeshNormals objects; the first one is used");
            return;
        }
        m.normals = normals;
        m.normalIndices = indices;
    }

    private void textureCoordinates(XDocument.Mesh m) {
        String where = m.where + " MeshTextureCoords";
        open("MeshTextureCoords");
        long count = t.readInt(where + " count");
        if (count != m.vertexCount()) {
            throw ImportException.invalid(where + " has " + count + " coordinates but the mesh has " + m.vertexCount()
                    + " vertices (" + t.location() + ")");
        }
        t.requireData(count, 0, 2, where);
        budget.charge(2 * count, 4, where);
        float[] uv = new float[(int) (2 * count)];
        for (long i = 0; i < 2 * count; i++) {
            budget.checkTime();
            uv[(int) i] = (float) t.readFloat(where);
        }
        close(where);
        m.texcoordSets.add(uv);
    }

    /**
     * {@code MeshVertexColors}: a count, then per entry a vertex (position) index and a {@code ColorRGBA}. A vertex
     * listed twice takes its last colour; a vertex not listed is opaque white (a colour that changes nothing when
     * multiplied), with a warning. Values are kept as read; a second MeshVertexColors is ignored with a warning.
     */
    private void vertexColors(XDocument.Mesh m) {
        String where = m.where + " MeshVertexColors";
        open("MeshVertexColors");
        long count = t.readInt(where + " count");
        t.requireData(count, 1, 4, where);
        int n = m.vertexCount();
        budget.charge(4L * n + n, 4, where);
        float[] rgba = new float[4 * n];
        boolean[] listed = new boolean[n];
        for (long i = 0; i < count; i++) {
            budget.checkTime();
            long v = t.readInt(where + " vertex index");
            if (v < 0 || v >= n) {
                throw ImportException.invalid(where + ": entry " + i + " refers to vertex " + v + " of " + n + " ("
                        + t.location() + ")");
            }
            for (int c = 0; c < 4; c++) {
                rgba[(int) (4 * v + c)] = (float) t.readFloat(where + " colour");
            }
            listed[(int) v] = true;
        }
        close(where);
        if (m.colors != null) {
            warnings.add(m.where + " has several MeshVertexColors objects; the first one is used");
            return;
        }
        int unlisted = 0;
        for (int v = 0; v < n; v++) {
            if (!listed[v]) {
                unlisted++;
                java.util.Arrays.fill(rgba, 4 * v, 4 * v + 4, 1);
            }
        }
        if (unlisted > 0) {
            warnings.add(where + ": " + unlisted + " of " + n + " vertices have no colour; they are opaque white");
        }
        m.colors = rgba;
    }

    private void skinMeshHeader(XDocument.Mesh m) {
        String where = m.where + " XSkinMeshHeader";
        open("XSkinMeshHeader");
        for (int i = 0; i < 3; i++) {
            t.readInt(where);
        }
        close(where);
    }

    private void skinWeights(XDocument.Mesh m) {
        open("SkinWeights");
        String bone = t.readString(m.where + " SkinWeights bone name");
        String where = m.where + " SkinWeights " + XTokens.quote(bone);
        long count = t.readInt(where + " weight count");
        t.requireData(count, 1, 1, where);
        budget.charge(2 * count, 4, where);
        int[] vertices = new int[(int) count];
        float[] weights = new float[(int) count];
        int n = m.vertexCount();
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            long v = t.readInt(where + " vertex index");
            if (v < 0 || v >= n) {
                throw ImportException.invalid(where + ": weight " + i + " refers to vertex " + v + " of " + n + " ("
                        + t.location() + ")");
            }
            vertices[i] = (int) v;
        }
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            weights[i] = t.readFloat(where + " weights");
        }
        float[] offset = new float[16];
        for (int i = 0; i < 16; i++) {
            offset[i] = t.readFloat(where + " offset matrix");
        }
        close(where);
        m.bones.add(new XDocument.Bone(bone, vertices, weights, offset, where));
    }

    // ---- animation -------------------------------------------------------------------------------------------

    private void ticksPerSecond() {
        String at = t.location();
        open("AnimTicksPerSecond");
        long value = t.readInt("AnimTicksPerSecond");
        close("AnimTicksPerSecond");
        if (value <= 0) {
            throw ImportException.invalid("AnimTicksPerSecond (" + at + ") is " + value + "; it must be positive");
        }
        if (doc.ticksPerSecond > 0 && doc.ticksPerSecond != value) {
            warnings.add("the file has several AnimTicksPerSecond objects (" + doc.ticksPerSecond + ", " + value
                    + "); the last one is used");
        }
        doc.ticksPerSecond = value;
    }

    private void animationSet() {
        String openedAt = t.location();
        String name = open("AnimationSet");
        int index = doc.animationSets.size();
        if (index >= limits.maxClips()) {
            throw ImportException.tooLarge("the file has more than " + limits.maxClips() + " AnimationSets; the limit is "
                    + limits.maxClips() + " clips (" + ImportLimits.CLIPS + ")");
        }
        String where = "AnimationSet " + (name != null && !name.isEmpty() ? XTokens.quote(name) : "#" + index);
        List<XDocument.Animation> animations = new ArrayList<>();
        while (!closed(where, openedAt)) {
            if (t.peek() == Kind.WORD && t.peekWord().equals("Animation")) {
                t.skip();
                animations.add(animation(where, animations.size()));
            } else {
                child(where);
            }
        }
        doc.animationSets.add(new XDocument.AnimationSet(name, animations, where));
    }

    private XDocument.Animation animation(String setWhere, int index) {
        String openedAt = t.location();
        String name = open("Animation");
        String where = "Animation " + (name != null && !name.isEmpty() ? XTokens.quote(name) : "#" + index) + " of "
                + setWhere;
        XDocument.Animation a = new XDocument.Animation(name, where);
        while (!closed(where, openedAt)) {
            if (t.peek() == Kind.OPEN) {
                String ref = reference(where);
                if (a.target == null) {
                    a.target = ref;
                } else if (ref != null && !ref.equals(a.target)) {
                    warnings.add(where + " refers to several frames (" + XTokens.quote(a.target) + ", "
                            + XTokens.quote(ref) + "); the first one is animated");
                }
            } else if (t.peek() == Kind.WORD && t.peekWord().equals("AnimationKey")) {
                t.skip();
                a.keys.add(keys(a));
            } else {
                child(where);
            }
        }
        return a;
    }

    private XDocument.Keys keys(XDocument.Animation a) {
        String where = "AnimationKey " + a.keys.size() + " of " + a.where;
        open("AnimationKey");
        long type = t.readInt(where + " key type");
        if (type < 0 || type > 4) {
            throw ImportException.invalid(where + ": key type " + type + " (" + t.location()
                    + ") is not 0 (rotation), 1 (scale), 2 (position) or 4 (matrix)");
        }
        int components = XDocument.Keys.components((int) type);
        long count = t.readInt(where + " key count");
        t.requireData(count, 2, components, where + " keys");
        if (count > limits.maxKeysPerTrack()) {
            throw ImportLimits.exceeded(where, count, "keys", limits.maxKeysPerTrack(), ImportLimits.KEYS_PER_TRACK);
        }
        budget.charge(count * (2L + components), 4, where + " keys");
        long[] ticks = new long[(int) count];
        float[] values = new float[(int) count * components];
        String kind = switch ((int) type) {
            case 0 -> "rotation";
            case 1 -> "scale";
            case 2 -> "position";
            default -> "matrix";
        };
        for (int k = 0; k < count; k++) {
            budget.checkTime();
            long tick = t.readInt(where + " key time");
            if (tick < 0) {
                throw ImportException.invalid(where + ": key " + k + " has the negative time " + tick + " ("
                        + t.location() + ")");
            }
            if (k > 0 && tick < ticks[k - 1]) {
                throw ImportException.invalid(where + ": key " + k + " at tick " + tick + " comes before key " + (k - 1)
                        + " at tick " + ticks[k - 1] + " (" + t.location() + ")");
            }
            ticks[k] = tick;
            long n = t.readInt(where + " key value count");
            if (n != components) {
                throw ImportException.invalid(where + ": key " + k + " has " + n + " values but a " + kind + " key has "
                        + components + " (" + t.location() + ")");
            }
            for (int c = 0; c < components; c++) {
                values[k * components + c] = t.readFloat(where + " key values");
            }
        }
        close(where);
        return new XDocument.Keys((int) type, ticks, values, where);
    }
}
