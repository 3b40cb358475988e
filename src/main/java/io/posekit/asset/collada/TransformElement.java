package io.posekit.asset.collada;

import io.posekit.asset.ImportException;
import java.util.ArrayList;
import java.util.List;

/**
 * One transform element of a {@code <node>} ({@code <translate>}, {@code <rotate>}, {@code <scale>},
 * {@code <matrix>}, {@code <lookat>}, {@code <skew>}) with its parameters exactly as written: a matrix's 16
 * values are in the file's row-major order, a rotation is axis then angle in degrees.
 *
 * @param kind the element type
 * @param sid the element's {@code sid} (animation channels address it), or {@code null}
 * @param values the parameters, {@link Kind#parameters()} of them
 */
record TransformElement(Kind kind, String sid, double[] values) {

    /** The transform element types, with their parameter counts. */
    enum Kind {
        TRANSLATE("translate", 3), ROTATE("rotate", 4), SCALE("scale", 3), MATRIX("matrix", 16),
        LOOKAT("lookat", 9), SKEW("skew", 7);

        private final String tag;
        private final int parameters;

        Kind(String tag, int parameters) {
            this.tag = tag;
            this.parameters = parameters;
        }

        String tag() {
            return tag;
        }

        int parameters() {
            return parameters;
        }

        static Kind byTag(String tag) {
            for (Kind k : values()) {
                if (k.tag.equals(tag)) {
                    return k;
                }
            }
            return null;
        }
    }

    /**
     * The transform elements of {@code node} in document order.
     *
     * @throws ImportException (invalid) when an element does not hold exactly its number of finite values
     */
    static List<TransformElement> read(XmlElement node, String where) {
        List<TransformElement> out = new ArrayList<>();
        for (XmlElement c : node.children()) {
            Kind kind = Kind.byTag(c.name());
            if (kind != null) {
                double[] values = Tokens.doubles(c.text(), kind.parameters(), where + ": <" + kind.tag() + ">");
                out.add(new TransformElement(kind, c.attr("sid"), values));
            }
        }
        return out;
    }
}
