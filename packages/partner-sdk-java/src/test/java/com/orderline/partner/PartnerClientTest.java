package com.orderline.partner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real gateway, started by packages/partner-sdk/test/java-sdk.test.ts, whose
 * control API (ORDERLINE_TEST_HARNESS) gives a fresh partner per test and fault proxies.
 */
class PartnerClientTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private Map<String, Object> partner;
  private String proxyId;
  private String proxyUrl;

  @SuppressWarnings("unchecked")
  static Object harness(String method, String path, Object body) throws Exception {
    String base = System.getenv("ORDERLINE_TEST_HARNESS");
    if (base == null) throw new IllegalStateException("ORDERLINE_TEST_HARNESS is not set: run through java-sdk.test.ts");
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : Json.write(body)))
            .build();
    String text = HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
    return text.isEmpty() ? null : Json.parse(text);
  }

  @SuppressWarnings("unchecked")
  @BeforeEach
  void freshPartnerAndProxy() throws Exception {
    partner = (Map<String, Object>) harness("POST", "/partners", Map.of());
    Map<String, Object> proxy = (Map<String, Object>) harness("POST", "/proxies", Map.of());
    proxyId = (String) proxy.get("id");
    proxyUrl = (String) proxy.get("url");
  }

  PartnerClient.Builder client(String baseUrl) {
    return PartnerClient.builder()
        .baseUrl(baseUrl)
        .clientId((String) partner.get("client_id"))
        .clientSecret((String) partner.get("client_secret"))
        .privateKeyPem((String) partner.get("private_key_pem"))
        .retryBaseDelay(Duration.ofMillis(5));
  }

  @SuppressWarnings("unchecked")
  List<Map<String, Object>> attempts() throws Exception {
    List<Map<String, Object>> all = new ArrayList<>();
    for (Object a : (List<Object>) harness("GET", "/proxies/" + proxyId + "/attempts", null)) {
      Map<String, Object> attempt = (Map<String, Object>) a;
      if (((String) attempt.get("url")).startsWith("/api/v1/sales-orders")) all.add(attempt);
    }
    return all;
  }

  static Map<String, Object> order(String po) {
    return Map.of(
        "customer_code", "CUST-001",
        "site_code", "SITE-01",
        "sales_name", "Dana Sales",
        "address", "1 Harbour Road",
        "purchase_order_no", po,
        "products", List.of(Map.of("product_code", "SKU-1", "quantity", 2)));
  }

  @SuppressWarnings("unchecked")
  @Test
  void createsGetsListsAndIteratesOverSignedRequests() throws Exception {
    PartnerClient sdk = client(proxyUrl).build();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) ids.add(sdk.salesOrders().create(order("J-" + i)).id());
    SalesOrder got = sdk.salesOrders().get(ids.get(0));
    assertTrue(got.orderNumber().startsWith("SO-"));
    assertEquals("received", got.history().get(0).get("to"));
    List<String> seen = new ArrayList<>();
    for (SalesOrder o : sdk.salesOrders().iterate(2, SalesOrders.Filters.none())) seen.add(o.id());
    List<String> newestFirst = new ArrayList<>(ids);
    java.util.Collections.reverse(newestFirst);
    assertEquals(newestFirst, seen);
    for (Map<String, Object> attempt : attempts()) {
      Map<String, Object> headers = (Map<String, Object>) attempt.get("headers");
      assertEquals(13, ((String) headers.get("x-timestamp")).length());
      assertEquals("2", headers.get("x-signature-version"));
    }
  }

  @Test
  void validationErrorsNameEveryField() {
    PartnerClient sdk = client(proxyUrl).build();
    Map<String, Object> bad = new java.util.HashMap<>(order("BAD"));
    bad.put("products", List.of());
    bad.put("customer_code", " ");
    PartnerApiError error = assertThrows(PartnerApiError.class, () -> sdk.salesOrders().create(bad));
    assertEquals(400, error.status());
    assertEquals("validation_failed", error.code());
    List<String> pointers = error.fieldErrors().stream().map(FieldError::pointer).collect(Collectors.toList());
    assertTrue(pointers.containsAll(List.of("/products", "/customer_code")), pointers.toString());
    assertTrue(error.getMessage().contains("/customer_code"));
    assertEquals(1, error.attempts());
    assertEquals("order_not_found", assertThrows(PartnerApiError.class, () -> sdk.salesOrders().get("nope")).code());
  }

  @SuppressWarnings("unchecked")
  @Test
  void aLostAnswerIsRetriedWithTheSameIdempotencyKeySignedAfresh() throws Exception {
    PartnerClient sdk = client(proxyUrl).build();
    harness("PUT", "/proxies/" + proxyId + "/faults", List.of(Map.of("kind", "forward-then-respond", "status", 503)));
    SalesOrder created = sdk.salesOrders().create(order("J-RETRY"), "key-j-1");
    List<Map<String, Object>> posts = attempts();
    assertEquals(2, posts.size());
    Map<String, Object> first = (Map<String, Object>) posts.get(0).get("headers");
    Map<String, Object> second = (Map<String, Object>) posts.get(1).get("headers");
    assertEquals("key-j-1", first.get("idempotency-key"));
    assertEquals("key-j-1", second.get("idempotency-key"));
    assertNotEquals(first.get("x-timestamp"), second.get("x-timestamp"));
    List<String> found = new ArrayList<>();
    for (SalesOrder o : sdk.salesOrders().iterate(null, new SalesOrders.Filters(null, null, null, "J-RETRY"))) found.add(o.id());
    assertEquals(List.of(created.id()), found);
  }

  @Test
  void networkFailuresAreRetriedThenThrown() throws Exception {
    PartnerClient sdk = client(proxyUrl).maxRetries(1).build();
    sdk.login();
    // java.net.http itself retries a GET once on a closed connection: four cuts in all.
    Map<String, Object> cut = Map.of("kind", "destroy");
    harness("PUT", "/proxies/" + proxyId + "/faults", List.of(cut, cut, cut, cut));
    PartnerNetworkError error = assertThrows(PartnerNetworkError.class, () -> sdk.salesOrders().list());
    assertEquals(2, error.attempts());
  }

  @Test
  void aClockFarOffIsCorrectedAndCancelReturnsTheCancelledOrder() {
    PartnerClient sdk = client(proxyUrl).clock(() -> System.currentTimeMillis() - 3_600_000).build();
    SalesOrder created = sdk.salesOrders().create(order("J-SKEW"));
    SalesOrder cancelled = sdk.salesOrders().cancel(created.id(), "sent twice by mistake");
    assertEquals("cancelled", cancelled.status());
    assertEquals(2, cancelled.version());
    PartnerApiError again = assertThrows(PartnerApiError.class, () -> sdk.salesOrders().cancel(created.id(), "again"));
    assertEquals("order_transition_invalid", again.code());
    assertEquals("cancelled", again.problem().get("current_status"));
  }

  @Test
  void webhookEndpointsSelfServiceAndTheRequestLog() throws Exception {
    PartnerClient sdk = client(proxyUrl).build();
    JsonObject endpoint = sdk.webhookEndpoints().create("https://erp.example.com/hooks", List.of("order.created"));
    String id = endpoint.string("id");
    assertTrue(endpoint.string("secret").startsWith("whsec_"));
    assertEquals(1, sdk.webhookEndpoints().list().size());
    assertEquals(false, sdk.webhookEndpoints().update(id, null, List.of("*"), false).bool("enabled"));
    assertTrue(sdk.webhookEndpoints().rotateSecret(id).string("secret").startsWith("whsec_"));
    assertEquals(0, sdk.webhookEndpoints().deliveries(id, 5).size());
    sdk.webhookEndpoints().delete(id);
    assertEquals("webhook_endpoint_not_found", assertThrows(PartnerApiError.class, () -> sdk.webhookEndpoints().get(id)).code());

    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(1024);
    PartnerClient wrong = client(proxyUrl).privateKey(generator.generateKeyPair().getPrivate()).signLogin(false).build();
    PartnerApiError refused = assertThrows(PartnerApiError.class, () -> wrong.salesOrders().list());
    assertEquals("signature_invalid", refused.code());
    // The gateway writes its request log within a quarter of a second: read until it is there.
    JsonObject logged = null;
    for (int i = 0; logged == null && i < 100; i++) {
      logged =
          sdk.requestLog().failed(5).stream()
              .filter(r -> "signature_invalid".equals(r.string("code")))
              .findFirst()
              .orElse(null);
      if (logged == null) Thread.sleep(100);
    }
    assertTrue(logged != null, "no signature_invalid in the request log");
    assertTrue(((String) logged.object("expected").get("string_to_sign")).startsWith("v2\n"));
  }

  @Test
  void webhookSignaturesVerifyAndRefuseWithAReason() {
    byte[] body = "{\"id\":\"evt_1\",\"type\":\"order.created\"}".getBytes(StandardCharsets.UTF_8);
    long now = System.currentTimeMillis() / 1000;
    String header = Webhooks.sign(body, List.of("whsec_a"), now);
    assertEquals("evt_1", Webhooks.verify(body, header, "whsec_a").get("id"));
    assertEquals("no_matching_signature", assertThrows(WebhookSignatureError.class, () -> Webhooks.verify(body, header, "whsec_b")).reason());
    assertEquals("header_malformed", assertThrows(WebhookSignatureError.class, () -> Webhooks.verify(body, "junk", "whsec_a")).reason());
    assertEquals("header_missing", assertThrows(WebhookSignatureError.class, () -> Webhooks.verify(body, null, "whsec_a")).reason());
    String old = Webhooks.sign(body, List.of("whsec_a"), now - 600);
    assertEquals("timestamp_outside_tolerance", assertThrows(WebhookSignatureError.class, () -> Webhooks.verify(body, old, "whsec_a")).reason());
  }

  @SuppressWarnings("unchecked")
  @Test
  void theEventStreamResumesAfterTheLastEventId() throws Exception {
    String gateway = (String) ((Map<String, Object>) harness("GET", "/", null)).get("gateway_url");
    PartnerClient sdk = client(gateway).build();
    List<StreamEvent> seen = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (EventStream stream = sdk.events(List.of("order.created"), null)) {
                while (seen.size() < 2 && stream.hasNext()) seen.add(stream.next());
              }
            });
    reader.setDaemon(true);
    reader.start();
    // The stream starts from now: orders are created until it has reported two.
    for (int i = 0; reader.isAlive() && i < 50; i++) {
      sdk.salesOrders().create(order("J-EV-" + i));
      Thread.sleep(200);
    }
    reader.join(60_000);
    assertEquals(2, seen.size());
    try (EventStream resumed = sdk.events(null, seen.get(0).id())) {
      assertEquals(seen.get(1).id(), resumed.next().id());
    }
  }
}
