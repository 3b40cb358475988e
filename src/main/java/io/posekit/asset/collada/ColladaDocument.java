package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed COLLADA document: the {@code <COLLADA>} root (checked: its namespace is COLLADA 1.4's, 1.5's or
 * none; its version 1.4.x or 1.5.x, else a warning), an index of every element's {@code id} for resolving
 * {@code #id} URLs, and the libraries. URLs to other documents are not followed.
 */
final class ColladaDocument {

    static final String NAMESPACE_14 = "http://www.collada.org/2005/11/COLLADASchema";
    static final String NAMESPACE_15 = "http://www.collada.org/2008/03/COLLADASchema";

    private final XmlElement root;
    private final Map<String, XmlElement> ids = new HashMap<>();

    private ColladaDocument(XmlElement root) {
        this.root = root;
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            String id = e.attr("id");
            if (id != null) {
                ids.putIfAbsent(id, e);
            }
            List<XmlElement> children = e.children();
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.push(children.get(i));
            }
        }
    }

    /**
     * Checks the root element and indexes the document.
     *
     * @throws ImportException (invalid) when the root is not {@code <COLLADA>} in the COLLADA namespace or none
     */
    static ColladaDocument of(XmlTreeReader.Document doc, ImportWarnings warnings) {
        XmlElement root = doc.root();
        if (!root.name().equals("COLLADA")) {
            throw ImportException.invalid("the root element is <" + Text.shorten(root.name()) + ">, not <COLLADA>");
        }
        String ns = doc.rootNamespace();
        if (ns != null && !ns.isEmpty() && !ns.equals(NAMESPACE_14) && !ns.equals(NAMESPACE_15)) {
            throw ImportException.invalid("the <COLLADA> root is in namespace " + Text.quote(ns) + ", not COLLADA's ("
                    + NAMESPACE_14 + " or " + NAMESPACE_15 + ")");
        }
        String version = root.attr("version");
        if (version == null || !(version.startsWith("1.4.") || version.startsWith("1.5."))) {
            warnings.add("COLLADA version " + (version == null ? "(none)" : Text.quote(version))
                    + " is not 1.4.x or 1.5.x; the file is read as COLLADA 1.4.1");
        }
        return new ColladaDocument(root);
    }

    XmlElement root() {
        return root;
    }

    /** The element with {@code id}, or {@code null}. */
    XmlElement byId(String id) {
        return ids.get(id);
    }

    /**
     * The element a same-document URL ({@code #id}) names, or {@code null} when the URL is missing, points to
     * another document, or names nothing.
     */
    XmlElement resolve(String url) {
        if (url == null || url.length() < 2 || url.charAt(0) != '#') {
            return null;
        }
        return ids.get(url.substring(1));
    }

    /** Every {@code <element>} child of every {@code <library>} element under the root, in document order. */
    List<XmlElement> library(String library, String element) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement lib : root.children(library)) {
            out.addAll(lib.children(element));
        }
        return out;
    }

    /** Every {@code <animation>} in the animation libraries, nested ones included, in document order. */
    List<XmlElement> allAnimations() {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement a : library("library_animations", "animation")) {
            collectAnimations(a, out);
        }
        return out;
    }

    /** {@code animation} and every {@code <animation>} nested in it, in document order. */
    static void collectAnimations(XmlElement animation, List<XmlElement> out) {
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(animation);
        while (!stack.isEmpty()) {
            XmlElement a = stack.pop();
            out.add(a);
            List<XmlElement> nested = a.children("animation");
            for (int i = nested.size() - 1; i >= 0; i--) {
                stack.push(nested.get(i));
            }
        }
    }
}
