package io.posekit.asset.collada;

import java.util.ArrayList;
import java.util.List;

/**
 * One element of a parsed COLLADA document: local name (namespace prefixes dropped), attributes by local
 * name, child elements in document order and the element's own character content (the text directly inside
 * it, not its children's; {@code ""} when blank). Immutable, with identity semantics: two elements are equal only
 * when they are the same element of the document.
 */
final class XmlElement {

    private final String name;
    private final String[] attributes;
    private final List<XmlElement> children;
    private final String text;

    /**
     * @param name the local name, e.g. {@code float_array}
     * @param attributes alternating attribute local names and values (not copied)
     * @param children the child elements in document order
     * @param text the element's own text, {@code ""} when blank
     */
    XmlElement(String name, String[] attributes, List<XmlElement> children, String text) {
        this.name = name;
        this.attributes = attributes;
        this.children = List.copyOf(children);
        this.text = text;
    }

    String name() {
        return name;
    }

    List<XmlElement> children() {
        return children;
    }

    String text() {
        return text;
    }

    /** The value of attribute {@code attribute}, or {@code null}. */
    String attr(String attribute) {
        for (int i = 0; i < attributes.length; i += 2) {
            if (attributes[i].equals(attribute)) {
                return attributes[i + 1];
            }
        }
        return null;
    }

    /** The first child named {@code childName}, or {@code null}. */
    XmlElement child(String childName) {
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /** The children named {@code childName}, in document order. */
    List<XmlElement> children(String childName) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The element's {@code id}, else {@code name}, else {@code sid}, quoted for messages, else its tag. */
    String label() {
        String s = attr("id");
        if (s == null) {
            s = attr("name");
        }
        if (s == null) {
            s = attr("sid");
        }
        return s == null ? "<" + name + ">" : "'" + Text.shorten(s) + "'";
    }

    @Override
    public String toString() {
        return "<" + name + (attr("id") == null ? "" : " id=" + attr("id")) + ">";
    }
}
