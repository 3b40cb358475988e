package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.posekit.asset.SourceFile;
import java.util.List;

/**
 * Where the server streams the body of a route that takes uploads ({@link Route#upload()}): its pieces in order, as
 * they arrive, on the connection's event loop (each piece is written out before the next is read, so nothing of the
 * body is held but the piece and the sink's own fixed buffer, {@link #bufferBytes()}), then its end. Opened once the
 * request is admitted (its headers checked: a {@code 415} or {@code 413} is thrown by the opener before a byte of the
 * body is read); closed once when the exchange ends, whatever happened.
 */
public interface UploadSink extends AutoCloseable {

    /** Opens the sink of one request; throws an {@link ApiException} to refuse it before its body is read. */
    @FunctionalInterface
    interface Opener {
        UploadSink open(Exchange exchange);
    }

    /** The memory the sink holds while it is open, bytes (reserved against the server's upload budget). */
    int bufferBytes();

    /**
     * The least memory the parse of a body of {@code declared} bytes (its {@code Content-Length}, or 0 when not given)
     * certainly holds, as far as the request's headers tell: checked against the upload budget before the body is
     * read, so an upload that could never be parsed is refused before it is sent.
     */
    long heldAtLeast(long declared);

    /** The memory the parse of these received files holds (what it reads whole), bytes, reserved while it runs. */
    long heldBytes(List<SourceFile> files);

    /**
     * Takes the piece's readable bytes, without retaining it.
     *
     * @throws ApiException when the body is malformed or too large ({@code 400}, {@code 413})
     */
    void write(ByteBuf piece);

    /**
     * The body ended: the uploaded files, readable until {@link #close()}.
     *
     * @throws ApiException when the body is incomplete, empty or names no file
     */
    List<SourceFile> finish();

    /** Releases everything the sink holds (its files on disk, unless a store moved them away). */
    @Override
    void close();
}
