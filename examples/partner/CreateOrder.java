// Logs in and creates one sales order signed with signature version 2, with the JDK alone (17+).
// Run with the four ORDERLINE_* variables set:   java CreateOrder.java
// The private key must be PKCS#8 PEM ("BEGIN PRIVATE KEY", what `orderline-partner keygen` writes);
// convert a PKCS#1 key ("BEGIN RSA PRIVATE KEY") with: openssl pkcs8 -topk8 -nocrypt -in old.pem -out key.pem
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class CreateOrder {
  static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      System.err.println("set " + name);
      System.exit(2);
    }
    return value;
  }

  static PrivateKey readPrivateKey(Path file) throws Exception {
    String pem = Files.readString(file);
    if (!pem.contains("BEGIN PRIVATE KEY")) {
      throw new IllegalArgumentException(file + " is not a PKCS#8 PEM private key (see the comment at the top)");
    }
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
  }

  /** base64(SHA256withRSA(privateKey, text)): the X-SIGNATURE value. */
  static String sign(PrivateKey privateKey, String text) throws Exception {
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(privateKey);
    signer.update(text.getBytes(StandardCharsets.UTF_8));
    return Base64.getEncoder().encodeToString(signer.sign());
  }

  public static void main(String[] args) throws Exception {
    String baseUrl = env("ORDERLINE_BASE_URL");
    String clientId = env("ORDERLINE_CLIENT_ID");
    String clientSecret = env("ORDERLINE_CLIENT_SECRET");
    PrivateKey privateKey = readPrivateKey(Path.of(env("ORDERLINE_PRIVATE_KEY_FILE")));
    HttpClient http = HttpClient.newHttpClient();

    // 1. Log in: client credentials for a 12-hour token. (A JSON library would escape the values;
    //    client ids and secrets are URL-safe characters, so plain concatenation is enough here.)
    //    The login is signed like an order (client_id|timestamp): it proves the key, so failed
    //    logins of someone guessing the secret elsewhere never throttle it.
    String credentials = "{\"client_id\":\"" + clientId + "\",\"client_secret\":\"" + clientSecret + "\"}";
    String loginTimestamp = Long.toString(System.currentTimeMillis() / 1000);
    HttpResponse<String> login = http.send(
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/auth/login"))
            .header("Content-Type", "application/json")
            .header("X-CLIENT-ID", clientId)
            .header("X-TIMESTAMP", loginTimestamp)
            .header("X-SIGNATURE", sign(privateKey, clientId + "|" + loginTimestamp))
            .POST(HttpRequest.BodyPublishers.ofString(credentials))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    Matcher token = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"").matcher(login.body());
    if (login.statusCode() != 200 || !token.find()) {
      System.err.println("login failed: " + login.body());
      System.exit(1);
    }

    // 2. The exact bytes to send; the signature covers their SHA-256.
    byte[] body = ("{\"customer_code\":\"CUST-001\",\"site_code\":\"SITE-01\",\"sales_name\":\"Dana Sales\","
        + "\"address\":\"1 Harbour Road, Springfield\",\"purchase_order_no\":null,"
        + "\"products\":[{\"product_code\":\"SKU-1001\",\"quantity\":2,\"uom\":\"EA\",\"unit_price\":9.5}]}")
        .getBytes(StandardCharsets.UTF_8);
    String method = "POST";
    String target = "/api/v1/sales-orders";
    String timestamp = Long.toString(System.currentTimeMillis() / 1000);
    String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));

    // 3. Version 2 string-to-sign: six lines joined by "\n", no trailing newline.
    String stringToSign = String.join("\n", "v2", clientId, timestamp, method, target, digest);
    String signature = sign(privateKey, stringToSign);

    // 4. Send it, with an Idempotency-Key so that a retry after a lost answer cannot create twice.
    HttpResponse<String> response = http.send(
        HttpRequest.newBuilder(URI.create(baseUrl + target))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + token.group(1))
            .header("X-CLIENT-ID", clientId)
            .header("X-TIMESTAMP", timestamp)
            .header("X-SIGNATURE-VERSION", "2")
            .header("X-SIGNATURE", signature)
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    System.out.println(response.body());
    System.out.println("HTTP " + response.statusCode());
    System.exit(response.statusCode() == 201 ? 0 : 1);
  }
}
