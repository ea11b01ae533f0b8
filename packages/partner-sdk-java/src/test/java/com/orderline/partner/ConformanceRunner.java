package com.orderline.partner;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The conformance runner for the Java SDK: see packages/partner-sdk/conformance/README.md. */
public final class ConformanceRunner {
  private ConformanceRunner() {}

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    Map<String, Object> input =
        (Map<String, Object>) Json.parse(new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
    List<Object> results = new ArrayList<>();
    for (Object step : (List<Object>) input.get("steps")) {
      try {
        results.add(run(input, (Map<String, Object>) step));
      } catch (PartnerApiError | PartnerNetworkError error) {
        results.add(Map.of("ok", false, "error", errorOf(error)));
      }
    }
    System.out.println(Json.write(results));
  }

  @SuppressWarnings("unchecked")
  static PartnerClient clientFor(Map<String, Object> input, Map<String, Object> step) throws Exception {
    Map<String, Object> settings = new LinkedHashMap<>(input);
    if (step.get("client") instanceof Map<?, ?> overrides) settings.putAll((Map<String, Object>) overrides);
    return PartnerClient.builder()
        .baseUrl((String) settings.get("base_url"))
        .clientId((String) settings.get("client_id"))
        .clientSecret((String) settings.get("client_secret"))
        .privateKeyPem(Files.readString(Path.of((String) settings.get("private_key_file"))))
        .signLogin(!Boolean.FALSE.equals(settings.get("sign_login")))
        .retryBaseDelay(Duration.ofMillis(20))
        .build();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> errorOf(RuntimeException failure) {
    Map<String, Object> error = new LinkedHashMap<>();
    if (failure instanceof PartnerApiError api) {
      List<Object> hints = new ArrayList<>();
      if (api.problem().get("hints") instanceof List<?> list) {
        for (Object hint : list) hints.add(((Map<String, Object>) hint).get("code"));
      }
      Object text = api.problem().get("string_to_sign");
      error.put("type", "api");
      error.put("status", api.status());
      error.put("code", api.code());
      error.put("attempts", api.attempts());
      error.put("hints", hints);
      error.put("string_to_sign_version", text instanceof String s ? s.split("\n")[0] : null);
    } else {
      error.put("type", "network");
      error.put("attempts", ((PartnerNetworkError) failure).attempts());
      error.put("message", failure.getMessage());
    }
    return error;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> run(Map<String, Object> input, Map<String, Object> step) throws Exception {
    String op = (String) step.get("op");
    Map<String, Object> result = new LinkedHashMap<>();
    if (op.equals("verify_webhook")) {
      try {
        Map<String, Object> event =
            Webhooks.verify(
                ((String) step.get("payload")).getBytes(StandardCharsets.UTF_8),
                (String) step.get("header"),
                (String) step.get("secret"));
        result.put("ok", true);
        result.put("event_id", event.get("id"));
      } catch (WebhookSignatureError error) {
        result.put("ok", false);
        result.put("reason", error.reason());
      }
      return result;
    }
    PartnerClient client = clientFor(input, step);
    result.put("ok", true);
    switch (op) {
      case "create_order" -> {
        Map<String, Object> order = (Map<String, Object>) step.get("order");
        String key = (String) step.get("idempotency_key");
        SalesOrder created =
            key == null ? client.salesOrders().create(order) : client.salesOrders().create(order, key);
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("id", created.id());
        shown.put("order_number", created.orderNumber());
        shown.put("purchase_order_no", created.purchaseOrderNo());
        result.put("order", shown);
      }
      case "list_all" -> {
        List<Object> ids = new ArrayList<>();
        int pageSize = ((Number) step.get("page_size")).intValue();
        for (SalesOrder order : client.salesOrders().iterate(pageSize, SalesOrders.Filters.none())) {
          ids.add(order.id());
        }
        result.put("ids", ids);
      }
      case "request_log_failed" -> {
        List<Object> refused = new ArrayList<>();
        List<JsonObject> entries = List.of();
        for (int i = 0; i < 100; i++) {
          entries = client.requestLog().failed(((Number) step.get("limit")).intValue());
          if (entries.stream().anyMatch(e -> step.get("until_code").equals(e.string("code")))) break;
          Thread.sleep(100);
        }
        for (JsonObject entry : entries) {
          List<Object> hints = new ArrayList<>();
          for (Object hint : new JsonObject(entry.object("expected")).list("hints")) {
            hints.add(((Map<String, Object>) hint).get("code"));
          }
          refused.add(Map.of("code", entry.string("code"), "hints", hints));
        }
        result.put("refused", refused);
      }
      case "stream" -> {
        List<Object> events = new ArrayList<>();
        int count = ((Number) step.get("count")).intValue();
        try (EventStream stream = client.events(null, (String) step.get("last_event_id"))) {
          while (events.size() < count && stream.hasNext()) {
            StreamEvent event = stream.next();
            events.add(Map.of("id", event.id(), "type", event.type()));
          }
        }
        result.put("events", events);
      }
      default -> throw new IllegalArgumentException("unknown op " + op);
    }
    return result;
  }
}
