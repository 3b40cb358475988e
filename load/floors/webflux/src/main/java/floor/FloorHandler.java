package floor;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The Reactor Netty handler of the floors that use Reactor Netty directly: reads the query parameters the real
 * endpoint reads, then answers the pre-built body.
 */
public final class FloorHandler {

    public static final byte[] BINARY = Bodies.binary();
    public static final byte[] JSON = Bodies.json();

    private FloorHandler() {
    }

    public static Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        QueryStringDecoder q = new QueryStringDecoder(req.uri());
        if (q.parameters().size() > 8) {
            return res.status(400).send();
        }
        String accept = req.requestHeaders().get(HttpHeaderNames.ACCEPT);
        boolean binary = accept != null && accept.contains("application/octet-stream");
        byte[] body = binary ? BINARY : JSON;
        return res.header(HttpHeaderNames.CONTENT_TYPE, binary ? "application/octet-stream" : "application/json")
                .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length))
                .sendObject(Mono.just(Unpooled.wrappedBuffer(body)));
    }
}
