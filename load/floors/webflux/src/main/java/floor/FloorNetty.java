package floor;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * The floor of Netty alone on epoll: an HTTP/1.1 codec and one handler that answers pre-built bytes, flushing once
 * per batch of reads. The lowest a JVM server here can go.
 */
public final class FloorNetty {

    private FloorNetty() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(System.getProperty("server.port", "8080"));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new Handler());
                    }
                }).bind("127.0.0.1", port).sync().channel().closeFuture().sync();
    }

    private static final class Handler extends SimpleChannelInboundHandler<HttpObject> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest req)) {
                return;
            }
            QueryStringDecoder q = new QueryStringDecoder(req.uri());
            String accept = req.headers().get(HttpHeaderNames.ACCEPT);
            boolean binary = accept != null && accept.contains("application/octet-stream");
            byte[] body = binary ? FloorHandler.BINARY : FloorHandler.JSON;
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    q.parameters().size() > 8 ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, binary ? "application/octet-stream" : "application/json")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.write(res);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
