package io.posekit.asset;

import java.util.Objects;

/**
 * One file of an upload: a name (a relative path with {@code /} separators, e.g. {@code Fox.glb} or
 * {@code textures/skin.png} inside a zip) and its bytes. The byte array is shared, not copied: whoever
 * creates a SourceFile hands the array over and must not modify it afterwards.
 *
 * @param name relative path of the file within the upload
 * @param bytes the content
 */
public record SourceFile(String name, byte[] bytes) {

    public SourceFile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bytes, "bytes");
    }

    /** The last path segment of {@link #name()}. */
    public String baseName() {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    public int size() {
        return bytes.length;
    }

    @Override
    public String toString() {
        return name + " (" + bytes.length + " bytes)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceFile other && name.equals(other.name) && java.util.Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + java.util.Arrays.hashCode(bytes);
    }
}
