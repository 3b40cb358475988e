package io.posekit.fuzz;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * COLLADA-aware mutations: the document is parsed into a DOM, one edit is made (a {@code count}, {@code stride},
 * {@code offset} or other sizing attribute set to a lie; numbers in an array's or transform's text replaced,
 * dropped or multiplied; an element duplicated, deleted, moved or renamed; a URL, source, target or skeleton
 * pointed elsewhere; a node instancing itself) and the document written back. Some edits work on the text
 * instead: thousands of nested elements, a DOCTYPE with entities (internal, billion laughs, quadratic, external
 * file, external DTD, parameter entity), and encoding declarations and byte order marks that agree or disagree.
 */
final class XmlMutations {

    /** Attributes that size or index something. */
    private static final Set<String> SIZING = Set.of("count", "stride", "offset", "set", "start", "end", "meter",
            "digits", "magnitude");
    /** Attributes that refer to another element. */
    private static final Set<String> REFERRING = Set.of("url", "source", "target", "symbol", "material", "sid", "id",
            "name");
    private static final String[] ATTRIBUTE_VALUES = {"0", "-1", "1", "2", "3", "16", "2147483647", "2147483648",
        "99999999999", "4294967296", "1e3", "", "abc", " 4 ", "0x10", "NaN", "inf", "-0", "1.5"};
    private static final String[] TARGET_PATHS = {"tip/rz(3)", "tip/rz.X", "tip/../rz", "tip/t(0)(0)", "tip/", "/rz",
        "tip/rz.ANGLE.ANGLE", "b0/m(4)(4)", "b0/m(-1)", "./t", "tip/s(9999999999)", "arm/r.Q", "tip/t.W", "(0)"};

    /** Malformed input is expected: the parser reports it by throwing, never on stderr. */
    private static final ErrorHandler SILENT = new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    };

    private static final ThreadLocal<DocumentBuilder> PARSER = ThreadLocal.withInitial(XmlMutations::parser);
    private static final ThreadLocal<Transformer> WRITER = ThreadLocal.withInitial(XmlMutations::writer);

    private XmlMutations() {
    }

    /** One edit of a COLLADA document; bytes that do not parse as XML get a text edit instead. */
    static byte[] mutate(byte[] xml, SplittableRandom r, List<String> log) {
        double[] weights = {3, 3, 1.5, 1.5, 1.5, 0.5, 0.7, 0.5, 0.5, 0.5, 0.3};
        int op = ByteMutations.pick(weights, r);
        switch (op) {
            case 5 -> {
                return deepNesting(xml, r, log);
            }
            case 6 -> {
                return doctype(xml, r, log);
            }
            case 10 -> {
                return encoding(xml, r, log);
            }
            default -> {
                // the DOM edits below
            }
        }
        Document doc;
        try {
            DocumentBuilder parser = PARSER.get();
            parser.reset();
            parser.setErrorHandler(SILENT);
            doc = parser.parse(new ByteArrayInputStream(xml));
        } catch (SAXException | IOException e) {
            return ByteMutations.mutateText(xml, r, log);
        }
        List<Element> elements = new ArrayList<>();
        collect(doc.getDocumentElement(), elements);
        switch (op) {
            case 0 -> attributeLie(elements, r, log);
            case 1 -> textNumbers(elements, r, log);
            case 2 -> duplicate(elements, r, log);
            case 3 -> delete(elements, r, log);
            case 4 -> reference(elements, r, log);
            case 7 -> instanceCycle(doc, elements, r, log);
            case 8 -> move(elements, r, log);
            default -> rename(doc, elements, r, log);
        }
        return write(doc);
    }

    private static void attributeLie(List<Element> elements, SplittableRandom r, List<String> log) {
        List<Attr> sizing = attributes(elements, SIZING);
        if (sizing.isEmpty() || r.nextInt(8) == 0) {
            // a sizing attribute where there was none (an offset on an input, a count on a mesh part)
            Element e = elements.get(r.nextInt(elements.size()));
            String name = List.copyOf(SIZING).get(r.nextInt(SIZING.size()));
            String value = ATTRIBUTE_VALUES[r.nextInt(ATTRIBUTE_VALUES.length)];
            e.setAttribute(name, value);
            log.add("xml add " + path(e) + " @" + name + "=\"" + value + "\"");
            return;
        }
        Attr a = sizing.get(r.nextInt(sizing.size()));
        String old = a.getValue();
        String value;
        if (r.nextInt(3) == 0 && old.matches("-?\\d{1,15}")) {
            long v = Long.parseLong(old);
            value = Long.toString(switch (r.nextInt(4)) {
                case 0 -> v + 1;
                case 1 -> v - 1;
                case 2 -> v * 1000;
                default -> v * 65536;
            });
        } else {
            value = ATTRIBUTE_VALUES[r.nextInt(ATTRIBUTE_VALUES.length)];
        }
        a.setValue(value);
        log.add("xml " + path(a.getOwnerElement()) + " @" + a.getName() + " \"" + old + "\" → \"" + value + "\"");
    }

    /** The numbers in an element's text: one replaced, some dropped, many appended, or all replaced. */
    private static void textNumbers(List<Element> elements, SplittableRandom r, List<String> log) {
        List<Element> numeric = elements.stream().filter(e -> {
            String t = directText(e);
            return t.chars().anyMatch(Character::isDigit);
        }).toList();
        if (numeric.isEmpty()) {
            attributeLie(elements, r, log);
            return;
        }
        Element e = numeric.get(r.nextInt(numeric.size()));
        String[] tokens = directText(e).trim().split("\\s+");
        List<String> out = new ArrayList<>(List.of(tokens));
        String what;
        // doubling an already long list (another edit appended 100 000 tokens) would only make the mutant huge
        switch (tokens.length > 100_000 ? r.nextInt(4) : r.nextInt(5)) {
            case 0 -> {
                int i = r.nextInt(out.size());
                String v = ByteMutations.INTERESTING_NUMBERS[r.nextInt(ByteMutations.INTERESTING_NUMBERS.length)];
                what = "token " + i + " " + out.get(i) + " → " + v;
                out.set(i, v);
            }
            case 1 -> {
                int keep = r.nextInt(out.size());
                out = new ArrayList<>(out.subList(0, keep));
                what = "keep " + keep + " of " + tokens.length + " tokens";
            }
            case 2 -> {
                int extra = new int[] {1, 3, 16, 100_000}[r.nextInt(4)];
                for (int i = 0; i < extra; i++) {
                    out.add(Integer.toString(r.nextInt(4)));
                }
                what = "append " + extra + " tokens";
            }
            case 3 -> {
                out = List.of(r.nextBoolean() ? "" : "nan inf -inf 1e39");
                what = "replace all " + tokens.length + " tokens by '" + out.getFirst() + "'";
            }
            default -> {
                out.addAll(List.of(tokens));
                what = "double the " + tokens.length + " tokens";
            }
        }
        setDirectText(e, String.join(" ", out));
        log.add("xml " + path(e) + " text: " + what);
    }

    private static void duplicate(List<Element> elements, SplittableRandom r, List<String> log) {
        Element e = nonRoot(elements, r);
        if (e == null) {
            return;
        }
        e.getParentNode().insertBefore(e.cloneNode(true), e.getNextSibling());
        log.add("xml duplicate " + path(e));
    }

    private static void delete(List<Element> elements, SplittableRandom r, List<String> log) {
        Element e = nonRoot(elements, r);
        if (e == null) {
            return;
        }
        log.add("xml delete " + path(e));
        e.getParentNode().removeChild(e);
    }

    /** A URL, source, target, skeleton or id pointed at another element, at nothing, or malformed. */
    private static void reference(List<Element> elements, SplittableRandom r, List<String> log) {
        List<Attr> refs = attributes(elements, REFERRING);
        List<String> ids = attributes(elements, Set.of("id")).stream().map(Attr::getValue).toList();
        List<Element> skeletons = elements.stream().filter(e -> e.getTagName().equals("skeleton")).toList();
        if (!skeletons.isEmpty() && r.nextInt(5) == 0) {
            Element s = skeletons.get(r.nextInt(skeletons.size()));
            String v = ids.isEmpty() || r.nextInt(3) == 0 ? "#missing" : "#" + ids.get(r.nextInt(ids.size()));
            log.add("xml " + path(s) + " '" + s.getTextContent() + "' → '" + v + "'");
            s.setTextContent(v);
            return;
        }
        if (refs.isEmpty()) {
            duplicate(elements, r, log);
            return;
        }
        Attr a = refs.get(r.nextInt(refs.size()));
        String old = a.getValue();
        String v;
        if (a.getName().equals("target") && r.nextBoolean()) {
            v = TARGET_PATHS[r.nextInt(TARGET_PATHS.length)];
        } else {
            v = switch (r.nextInt(5)) {
                case 0 -> "#missing";
                case 1 -> "#";
                case 2 -> "";
                default -> ids.isEmpty() ? "x" : (old.startsWith("#") ? "#" : "") + ids.get(r.nextInt(ids.size()));
            };
        }
        a.setValue(v);
        log.add("xml " + path(a.getOwnerElement()) + " @" + a.getName() + " '" + old + "' → '" + v + "'");
    }

    /** A node instancing itself (directly or from a descendant), or a controller instanced a second time. */
    private static void instanceCycle(Document doc, List<Element> elements, SplittableRandom r, List<String> log) {
        List<Element> nodes = elements.stream().filter(e -> e.getTagName().equals("node") && e.hasAttribute("id")).toList();
        if (nodes.isEmpty()) {
            duplicate(elements, r, log);
            return;
        }
        Element n = nodes.get(r.nextInt(nodes.size()));
        List<Element> inside = new ArrayList<>();
        collect(n, inside);
        List<Element> hosts = inside.stream().filter(e -> e.getTagName().equals("node")).toList();
        Element host = hosts.get(r.nextInt(hosts.size()));
        List<Element> controllers = elements.stream().filter(e -> e.getTagName().equals("controller")).toList();
        Element instance;
        if (!controllers.isEmpty() && r.nextInt(3) == 0) {
            instance = doc.createElement("instance_controller");
            instance.setAttribute("url", "#" + controllers.get(r.nextInt(controllers.size())).getAttribute("id"));
        } else {
            instance = doc.createElement("instance_node");
            instance.setAttribute("url", "#" + n.getAttribute("id"));
        }
        host.appendChild(instance);
        log.add("xml " + path(host) + " += <" + instance.getTagName() + " url=\"" + instance.getAttribute("url") + "\"/>");
    }

    /** An element moved under another (never under itself). */
    private static void move(List<Element> elements, SplittableRandom r, List<String> log) {
        Element e = nonRoot(elements, r);
        if (e == null) {
            return;
        }
        Element target = elements.get(r.nextInt(elements.size()));
        for (Node p = target; p != null; p = p.getParentNode()) {
            if (p == e) {
                return;
            }
        }
        log.add("xml move " + path(e) + " under " + path(target));
        target.appendChild(e);
    }

    private static void rename(Document doc, List<Element> elements, SplittableRandom r, List<String> log) {
        Element e = nonRoot(elements, r);
        if (e == null) {
            return;
        }
        String name = elements.get(r.nextInt(elements.size())).getTagName();
        log.add("xml rename " + path(e) + " to <" + name + ">");
        doc.renameNode(e, null, name);
    }

    /** Thousands of nested elements before the end of the visual scene (or of the document). */
    private static byte[] deepNesting(byte[] xml, SplittableRandom r, List<String> log) {
        String text = new String(xml, StandardCharsets.ISO_8859_1);
        int depth = new int[] {100, 257, 3000, 100_000}[r.nextInt(4)];
        String tag = new String[] {"node", "extra", "technique", "x"}[r.nextInt(4)];
        int at = text.indexOf("</visual_scene>");
        if (at < 0) {
            at = Math.max(0, text.lastIndexOf("</"));
        }
        String nested = ("<" + tag + ">").repeat(depth) + ("</" + tag + ">").repeat(depth);
        log.add("xml " + depth + " nested <" + tag + "> at " + at);
        return (text.substring(0, at) + nested + text.substring(at)).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A DOCTYPE after the XML declaration, with an entity used in the document's text. */
    private static byte[] doctype(byte[] xml, SplittableRandom r, List<String> log) {
        String text = new String(xml, StandardCharsets.ISO_8859_1);
        String root = "COLLADA";
        String[] variants = {
            "<!DOCTYPE " + root + " [<!ENTITY e \"0 0 1\">]>",
            "<!DOCTYPE " + root + " [<!ENTITY l0 \"lol\"><!ENTITY l1 \"&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;\">"
                    + "<!ENTITY l2 \"&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;\"><!ENTITY l3 \"&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;\">"
                    + "<!ENTITY l4 \"&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;\"><!ENTITY l5 \"&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;\">"
                    + "<!ENTITY l6 \"&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;\"><!ENTITY l7 \"&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;\">"
                    + "<!ENTITY l8 \"&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;\"><!ENTITY e \"&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;\">]>",
            "<!DOCTYPE " + root + " [<!ENTITY e \"" + "x".repeat(50_000) + "\">]>",
            "<!DOCTYPE " + root + " [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>",
            "<!DOCTYPE " + root + " SYSTEM \"http://127.0.0.1:1/collada.dtd\">",
            "<!DOCTYPE " + root + " [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/p.dtd\"> %p;]>",
            "<!DOCTYPE " + root + " [<!ELEMENT COLLADA ANY><!ATTLIST float_array count CDATA \"999\">]>"};
        int variant = r.nextInt(variants.length);
        int declEnd = text.startsWith("<?xml") ? text.indexOf("?>") + 2 : 0;
        String out = text.substring(0, declEnd) + variants[variant] + text.substring(declEnd);
        int uses = variant == 2 ? 2000 : 1;
        // the entity goes into text content: after a start tag whose text follows
        int gt = out.indexOf("<float_array");
        gt = gt < 0 ? out.indexOf('>', declEnd + variants[variant].length()) : out.indexOf('>', gt);
        if (gt > 0 && variant != 4 && variant != 6) {
            out = out.substring(0, gt + 1) + "&e;".repeat(uses) + " " + out.substring(gt + 1);
        }
        log.add("xml DOCTYPE variant " + variant + (variant == 4 || variant == 6 ? "" : ", &e; used " + uses + "×"));
        return out.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** An encoding declaration or byte order mark changed, agreeing with the bytes or not. */
    private static byte[] encoding(byte[] xml, SplittableRandom r, List<String> log) {
        String text = new String(xml, StandardCharsets.ISO_8859_1);
        switch (r.nextInt(3)) {
            case 0 -> {
                String label = new String[] {"UTF-16", "UTF-32", "ISO-8859-1", "bogus-enc", "EBCDIC-CP-US", "UTF-7", ""}[r.nextInt(7)];
                log.add("xml declared encoding → '" + label + "'");
                return text.replaceFirst("encoding=\"[^\"]*\"", "encoding=\"" + label + "\"").getBytes(StandardCharsets.ISO_8859_1);
            }
            case 1 -> {
                byte[][] boms = {{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {(byte) 0xFF, (byte) 0xFE}, {(byte) 0xFE, (byte) 0xFF},
                    {(byte) 0xFF, (byte) 0xFE, 0, 0}, {(byte) 0xEF, (byte) 0xBB}};
                int i = r.nextInt(boms.length);
                log.add("xml byte order mark " + i + " prepended");
                return ByteMutations.concat(boms[i], xml);
            }
            default -> {
                // the whole document recoded, declaration and mark agreeing: still a valid document
                Charset cs = r.nextBoolean() ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_16BE;
                String decoded = new String(xml, StandardCharsets.UTF_8).replaceFirst("encoding=\"[^\"]*\"", "encoding=\"UTF-16\"");
                log.add("xml recoded to " + cs);
                return ByteMutations.concat(new String(new char[] {'\uFEFF'}).getBytes(cs), decoded.getBytes(cs));
            }
        }
    }

    private static void collect(Element e, List<Element> out) {
        out.add(e);
        NodeList children = e.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element c) {
                collect(c, out);
            }
        }
    }

    private static List<Attr> attributes(List<Element> elements, Set<String> names) {
        List<Attr> out = new ArrayList<>();
        for (Element e : elements) {
            NamedNodeMap attributes = e.getAttributes();
            for (int i = 0; i < attributes.getLength(); i++) {
                Attr a = (Attr) attributes.item(i);
                if (names.contains(a.getName())) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    private static Element nonRoot(List<Element> elements, SplittableRandom r) {
        return elements.size() < 2 ? null : elements.get(1 + r.nextInt(elements.size() - 1));
    }

    private static String directText(Element e) {
        StringBuilder s = new StringBuilder();
        NodeList children = e.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i).getNodeType() == Node.TEXT_NODE) {
                s.append(children.item(i).getNodeValue());
            }
        }
        return s.toString();
    }

    private static void setDirectText(Element e, String text) {
        NodeList children = e.getChildNodes();
        for (int i = children.getLength() - 1; i >= 0; i--) {
            if (children.item(i).getNodeType() == Node.TEXT_NODE) {
                e.removeChild(children.item(i));
            }
        }
        e.insertBefore(e.getOwnerDocument().createTextNode(text), e.getFirstChild());
    }

    /** The element's path of tag names (with ids where present), for the mutation's description. */
    private static String path(Element e) {
        StringBuilder s = new StringBuilder();
        for (Node n = e; n instanceof Element el; n = n.getParentNode()) {
            String step = el.getTagName() + (el.hasAttribute("id") ? "#" + el.getAttribute("id") : "");
            s.insert(0, s.isEmpty() ? step : step + "/");
        }
        return s.toString();
    }

    private static byte[] write(Document doc) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Transformer t = WRITER.get();
            t.reset();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.transform(new DOMSource(doc), new StreamResult(out));
            return out.toByteArray();
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot write a DOM the fuzzer built", e);
        }
    }

    private static DocumentBuilder parser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            // the fuzzer's own parser reads no DTD: a document that already has one gets a text edit instead
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            return f.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Transformer writer() {
        try {
            return TransformerFactory.newInstance().newTransformer();
        } catch (TransformerConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }
}
