package floor;

import reactor.netty.http.server.HttpServer;

/** The floor of Reactor Netty alone (no Spring): {@code GET /floor} answers pre-built bytes. */
public final class FloorReactorNetty {

    private FloorReactorNetty() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(System.getProperty("server.port", "8080"));
        HttpServer.create().host("127.0.0.1").port(port).handle(FloorHandler::handle).bindNow().onDispose().block();
    }
}
