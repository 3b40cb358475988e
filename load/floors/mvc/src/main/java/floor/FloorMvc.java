package floor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The floor of Spring MVC: {@code GET /floor?…} answers pre-built bytes of the size of Fox's skinning matrices
 * (binary 1 536 bytes with {@code Accept: application/octet-stream}, else JSON of the same length as posekit's),
 * reading the query parameters the real endpoint reads so their parsing is counted.
 */
@SpringBootApplication
@RestController
public class FloorMvc {

    private static final byte[] BINARY = Bodies.binary();
    private static final byte[] JSON = Bodies.json();

    public static void main(String[] args) {
        SpringApplication.run(FloorMvc.class, args);
    }

    @GetMapping("/floor")
    ResponseEntity<byte[]> floor(@RequestParam(required = false) String clip, @RequestParam(required = false) String time,
            @RequestParam(required = false) String loop,
            @org.springframework.web.bind.annotation.RequestHeader(name = "Accept", required = false) String accept) {
        if (accept != null && accept.contains("application/octet-stream")) {
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).body(BINARY);
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(JSON);
    }
}
