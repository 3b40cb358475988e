package io.posekit.asset.collada;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.MissingResourceException;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses XML bytes into an {@link XmlElement} tree with StAX, hardened for untrusted input:
 *
 * <ul>
 *   <li>the JDK's built-in StAX implementation ({@link XMLInputFactory#newDefaultFactory()}), whatever else is
 *       on the class path, with DTD support, external entities and entity replacement switched off, external
 *       DTD and schema access denied and a resolver that refuses everything: nothing is ever read from a file
 *       or the network;</li>
 *   <li>any DOCTYPE (so any entity declaration) and any reference to a non-predefined entity is rejected
 *       (422) as soon as the parser reports it, before any content after it is read;</li>
 *   <li>nesting deeper than {@link ImportLimits#maxXmlDepth()} levels and more than
 *       {@link ImportLimits#maxXmlElements()} elements are too large (413), both while streaming, so a hostile
 *       document is never read further than the point where it breaks a limit; so is the parse time
 *       ({@link DecodeBudget#checkTime()});</li>
 *   <li>character content is buffered per element only; malformed XML is reported (422) with its line and
 *       column; the bytes are decoded strictly in the document's encoding ({@link XmlEncoding}).</li>
 * </ul>
 */
final class XmlTreeReader {

    private static final String[] NO_ATTRIBUTES = {};

    static final String DTD_MESSAGE = "DTDs and entity declarations are not allowed in COLLADA files";

    /** The parsed document: the root element and the root's namespace URI ({@code null} when none). */
    record Document(XmlElement root, String rootNamespace) {
    }

    private final int maxDepth;
    private final int maxElements;
    private final DecodeBudget budget;

    /** A reader under the budget's limits ({@link ImportLimits#maxXmlDepth()}, elements, parse time). */
    XmlTreeReader(DecodeBudget budget) {
        this(budget.limits().maxXmlDepth(), budget.limits().maxXmlElements(), budget);
    }

    /** A reader with other limits and no deadline (tests). */
    XmlTreeReader(int maxDepth, int maxElements) {
        this(maxDepth, maxElements, new DecodeBudget(Long.MAX_VALUE));
    }

    private XmlTreeReader(int maxDepth, int maxElements, DecodeBudget budget) {
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.budget = budget;
    }

    /**
     * Parses {@code bytes} (any encoding the XML declaration or BOM names).
     *
     * @throws ImportException (invalid) for malformed XML, a DTD or entity reference, or past the parse time; (too
     *     large) past the depth or element limit
     */
    Document parse(byte[] bytes) {
        XMLStreamReader reader = null;
        try {
            reader = factory().createXMLStreamReader(new TimedReader(XmlEncoding.reader(bytes), budget));
            return read(reader);
        } catch (XMLStreamException e) {
            throw malformed(e, bytes);
        } catch (MissingResourceException e) {
            // the JDK's parser reports some fatal errors under message keys its bundle lacks (an invalid character in
            // the internal subset of a DOCTYPE it skips: InvalidCharInDTD), failing to format them instead
            throw unformatted(e, reader);
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // nothing to release beyond the in-memory stream
                }
            }
        }
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException(DTD_MESSAGE);
        });
        optional(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        optional(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        // the JDK's own depth limit (100 by default since JDK 24) is replaced by ours, checked while streaming
        optional(f, "jdk.xml.maxElementDepth", 0);
        return f;
    }

    private static void optional(XMLInputFactory f, String property, Object value) {
        try {
            f.setProperty(property, value);
        } catch (IllegalArgumentException ignored) {
            // not this implementation's property: the standard switches above already apply
        }
    }

    private Document read(XMLStreamReader r) throws XMLStreamException {
        List<Builder> stack = new ArrayList<>();
        XmlElement root = null;
        String rootNamespace = null;
        int elements = 0;
        while (r.hasNext()) {
            budget.checkTime();
            int event = r.next();
            switch (event) {
                case XMLStreamConstants.DTD -> throw ImportException.invalid(DTD_MESSAGE + " (DOCTYPE at "
                        + position(r.getLocation()) + ")");
                case XMLStreamConstants.ENTITY_REFERENCE, XMLStreamConstants.ENTITY_DECLARATION ->
                        throw ImportException.invalid(DTD_MESSAGE + " (entity reference &" + Text.shorten(r.getLocalName())
                                + "; at " + position(r.getLocation()) + ")");
                case XMLStreamConstants.START_ELEMENT -> {
                    if (stack.size() >= maxDepth) {
                        throw ImportException.tooLarge("XML elements are nested deeper than " + maxDepth + " levels (at "
                                + position(r.getLocation()) + "); the limit is " + maxDepth + " ("
                                + ImportLimits.XML_DEPTH + ")");
                    }
                    if (++elements > maxElements) {
                        throw ImportException.tooLarge("the document has more than " + maxElements + " XML elements ("
                                + ImportLimits.XML_ELEMENTS + ")");
                    }
                    if (stack.isEmpty()) {
                        rootNamespace = r.getNamespaceURI();
                    }
                    int n = r.getAttributeCount();
                    String[] attributes = n == 0 ? NO_ATTRIBUTES : new String[2 * n];
                    for (int i = 0; i < n; i++) {
                        attributes[2 * i] = r.getAttributeLocalName(i);
                        attributes[2 * i + 1] = r.getAttributeValue(i);
                    }
                    stack.add(new Builder(r.getLocalName(), attributes));
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (!stack.isEmpty()) {
                        stack.getLast().append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    XmlElement done = stack.removeLast().build();
                    if (stack.isEmpty()) {
                        root = done;
                    } else {
                        stack.getLast().children.add(done);
                    }
                }
                default -> {
                    // comments, processing instructions, document start/end: nothing to keep
                }
            }
        }
        if (root == null) {
            throw ImportException.invalid("the file holds no XML element");
        }
        return new Document(root, rootNamespace);
    }

    /** Checks the parse time whenever the XML parser fetches more characters. */
    private static final class TimedReader extends FilterReader {
        private final DecodeBudget budget;

        TimedReader(Reader in, DecodeBudget budget) {
            super(in);
            this.budget = budget;
        }

        @Override
        public int read(char[] buffer, int offset, int length) throws IOException {
            budget.checkTimeNow();
            return super.read(buffer, offset, length);
        }
    }

    private static ImportException malformed(XMLStreamException e, byte[] bytes) {
        if (e.getNestedException() instanceof java.nio.charset.CharacterCodingException) {
            String where = XmlEncoding.firstInvalidByte(bytes);
            return new ImportException(ImportException.Kind.INVALID, "malformed XML: "
                    + (where == null ? "the bytes are not valid in the document's encoding" : where), e);
        }
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int marker = detail.indexOf("Message: ");
        if (marker >= 0) {
            detail = detail.substring(marker + "Message: ".length());
        }
        detail = detail.strip();
        if (detail.length() > 300) {
            detail = detail.substring(0, 300) + "…";
        }
        Location at = e.getLocation();
        String where = at == null ? "" : " at " + position(at);
        return new ImportException(ImportException.Kind.INVALID, "malformed XML" + where + ": " + detail, e);
    }

    private static ImportException unformatted(MissingResourceException e, XMLStreamReader reader) {
        String where = reader == null ? "an unknown position" : position(reader.getLocation());
        if ("InvalidCharInDTD".equals(e.getKey())) {
            return new ImportException(ImportException.Kind.INVALID, DTD_MESSAGE + " (DOCTYPE with an invalid character at "
                    + where + ")", e);
        }
        return new ImportException(ImportException.Kind.INVALID, "malformed XML at " + where + " (parser error "
                + e.getKey() + ")", e);
    }

    private static String position(Location at) {
        return at == null ? "an unknown position" : "line " + at.getLineNumber() + ", column " + at.getColumnNumber();
    }

    /** An element being read. */
    private static final class Builder {
        final String name;
        final String[] attributes;
        final List<XmlElement> children = new ArrayList<>();
        StringBuilder text;
        boolean hasContent;

        Builder(String name, String[] attributes) {
            this.name = name;
            this.attributes = attributes;
        }

        void append(char[] chars, int start, int length) {
            if (!hasContent) {
                // leading whitespace (indentation of container elements) is never kept
                int i = start;
                int end = start + length;
                while (i < end && isSpace(chars[i])) {
                    i++;
                }
                if (i == end) {
                    return;
                }
                hasContent = true;
                length = end - i;
                start = i;
            }
            if (text == null) {
                text = new StringBuilder(Math.max(16, length));
            }
            text.append(chars, start, length);
        }

        XmlElement build() {
            return new XmlElement(name, attributes, children, text == null ? "" : text.toString().strip());
        }
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }
}
