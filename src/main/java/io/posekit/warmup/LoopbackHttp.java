package io.posekit.warmup;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client over one keep-alive connection, for the warm-up's requests to its own server: it writes
 * a request's bytes and reads the answer (a {@code Content-Length} or chunked body), and reconnects when the server
 * closes the connection.
 *
 * <p>Why not {@link java.net.http.HttpClient}: on one core every cycle the client spends is taken from the server it
 * warms up, and the JIT would compile the JDK client's many layers too; this one costs a few microseconds a request.
 * Only for a server posekit trusts (its own): no TLS, no redirects, bodies held in memory whole. Not thread-safe.
 */
final class LoopbackHttp implements AutoCloseable {

    /** One answer: the status, the headers (names lower case; the last of repeated ones) and the body. */
    record Answer(int status, Map<String, String> headers, byte[] body) {

        String header(String name) {
            return headers.getOrDefault(name, "");
        }
    }

    private static final int TIMEOUT_MILLIS = 30_000;
    private static final int MAX_HEADER_LINE = 16 * 1024;

    private final InetSocketAddress address;
    private final String hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    LoopbackHttp(String host, int port) {
        this.address = new InetSocketAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
        this.hostHeader = host + ":" + port;
    }

    /**
     * Sends one request and reads its answer.
     *
     * @param target the path and query, e.g. {@code /api/v1/assets?x=1} (sent as given)
     * @param headers extra request headers, e.g. {@code "Accept", "application/json"}; pairs of name and value
     * @param body the body, or {@code null} for none
     * @throws IOException when the connection fails or the answer is not HTTP/1.1 as this client reads it
     */
    Answer send(String method, String target, byte[] body, String... headers) throws IOException {
        StringBuilder request = new StringBuilder(256).append(method).append(' ').append(target)
                .append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        if (body != null) {
            request.append("Content-Length: ").append(body.length).append("\r\n");
        }
        byte[] head = request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        boolean fresh = socket == null;
        try {
            return exchange(head, body);
        } catch (IOException e) {
            close();
            if (fresh) {
                throw e;
            }
            // the server closed an idle keep-alive connection: once more on a new one
            return exchange(head, body);
        }
    }

    private Answer exchange(byte[] head, byte[] body) throws IOException {
        if (socket == null) {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.setSoTimeout(TIMEOUT_MILLIS);
            s.connect(address, TIMEOUT_MILLIS);
            socket = s;
            in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
            out = s.getOutputStream();
        }
        out.write(head);
        if (body != null) {
            out.write(body);
        }
        out.flush();
        String statusLine = line();
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.1 answer: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon > 0) {
                headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
        }
        byte[] content;
        if (headers.getOrDefault("transfer-encoding", "").equalsIgnoreCase("chunked")) {
            content = chunked();
        } else if (headers.containsKey("content-length")) {
            content = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else if (status == 204 || status == 304) {
            content = new byte[0];
        } else {
            content = in.readAllBytes();
            close();
        }
        if (headers.getOrDefault("connection", "").equalsIgnoreCase("close")) {
            close();
        }
        return new Answer(status, headers, content);
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            int semicolon = size.indexOf(';');
            int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (n == 0) {
                // trailers, up to the blank line
                while (!line().isEmpty()) {
                    // skipped
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(n);
            if (chunk.length != n) {
                throw new EOFException("the answer ended inside a chunk");
            }
            body.write(chunk);
            line();
        }
    }

    /** One header line without its CRLF. */
    private String line() throws IOException {
        StringBuilder s = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("the connection closed inside an answer");
            }
            if (c == '\n') {
                int end = s.length();
                return s.substring(0, end > 0 && s.charAt(end - 1) == '\r' ? end - 1 : end);
            }
            if (s.length() >= MAX_HEADER_LINE) {
                throw new IOException("a header line longer than " + MAX_HEADER_LINE + " bytes");
            }
            s.append((char) c);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing: nothing left to do with it
            }
            socket = null;
            in = null;
            out = null;
        }
    }
}
