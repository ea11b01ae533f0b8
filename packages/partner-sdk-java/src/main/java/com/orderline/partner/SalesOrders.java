package com.orderline.partner;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.stream.Collectors;

/** {@code client.salesOrders()}: create, get, list, iterate over every page, cancel. */
public final class SalesOrders {
  /** Filters of the listing, combined with AND; each may be null. */
  public record Filters(
      String status, String createdFrom, String createdTo, String purchaseOrderNo) {
    public static Filters none() {
      return new Filters(null, null, null, null);
    }
  }

  private final SignedCaller caller;

  SalesOrders(SignedCaller caller) {
    this.caller = caller;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> data(Transport.Answer answer) {
    return (Map<String, Object>) ((Map<String, Object>) answer.body()).get("data");
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String orderPath(String id) {
    if (id == null || id.isEmpty()) throw new IllegalArgumentException("id must be a non-empty string");
    return "/api/v1/sales-orders/" + encode(id);
  }

  /** POST /api/v1/sales-orders with a fresh Idempotency-Key, reused on every retry. */
  public SalesOrder create(Map<String, ?> order) {
    return create(order, UUID.randomUUID().toString());
  }

  /**
   * The created order, or the one an earlier request with the same Idempotency-Key created: a
   * retry after a lost answer returns the first order rather than a second one.
   */
  public SalesOrder create(Map<String, ?> order, String idempotencyKey) {
    byte[] body = Json.write(order).getBytes(StandardCharsets.UTF_8);
    return new SalesOrder(
        data(caller.call("POST", "/api/v1/sales-orders", body, Map.of("Idempotency-Key", idempotencyKey))));
  }

  /** One order, with its history. */
  public SalesOrder get(String id) {
    return new SalesOrder(data(caller.call("GET", orderPath(id))));
  }

  /** One page, newest first; {@code limit} 1–100 or null, {@code cursor} a next_cursor or null. */
  @SuppressWarnings("unchecked")
  public SalesOrderPage list(Integer limit, String cursor, Filters filters) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("limit", limit);
    params.put("cursor", cursor);
    params.put("status", filters.status());
    params.put("created_from", filters.createdFrom());
    params.put("created_to", filters.createdTo());
    params.put("purchase_order_no", filters.purchaseOrderNo());
    String query =
        params.entrySet().stream()
            .filter(e -> e.getValue() != null)
            .map(e -> e.getKey() + "=" + encode(String.valueOf(e.getValue())))
            .collect(Collectors.joining("&"));
    Map<String, Object> page =
        (Map<String, Object>)
            caller.call("GET", "/api/v1/sales-orders" + (query.isEmpty() ? "" : "?" + query)).body();
    List<SalesOrder> orders = new ArrayList<>();
    for (Object order : (List<Object>) page.get("data")) orders.add(new SalesOrder((Map<String, Object>) order));
    return new SalesOrderPage(orders, (String) page.get("next_cursor"));
  }

  public SalesOrderPage list() {
    return list(null, null, Filters.none());
  }

  /** Every order the filters let through, newest first, page after page to the end. */
  public Iterable<SalesOrder> iterate(Integer pageSize, Filters filters) {
    return () ->
        new Iterator<>() {
          private Iterator<SalesOrder> page = List.<SalesOrder>of().iterator();
          private String cursor;
          private boolean last;

          @Override
          public boolean hasNext() {
            while (!page.hasNext() && !last) {
              SalesOrderPage next = list(pageSize, cursor, filters);
              page = next.data().iterator();
              cursor = next.nextCursor();
              last = cursor == null;
            }
            return page.hasNext();
          }

          @Override
          public SalesOrder next() {
            if (!hasNext()) throw new NoSuchElementException();
            return page.next();
          }
        };
  }

  public Iterable<SalesOrder> iterate() {
    return iterate(null, Filters.none());
  }

  /**
   * Withdraws an order still {@code received}; the cancelled order. Later: 409
   * order_transition_invalid with current_status. When an earlier attempt did cancel the order
   * but its answer was lost, the cancelled order is returned, not the retry's 409.
   */
  public SalesOrder cancel(String id, String reason) {
    String path = orderPath(id) + "/cancel";
    if (reason == null || reason.isBlank()) throw new IllegalArgumentException("cancel needs a reason");
    try {
      byte[] body = Json.write(Map.of("reason", reason)).getBytes(StandardCharsets.UTF_8);
      return new SalesOrder(data(caller.call("POST", path, body)));
    } catch (PartnerApiError error) {
      // Only a retried request can meet its own earlier success.
      if (error.attempts() > 1
          && error.code().equals("order_transition_invalid")
          && "cancelled".equals(error.problem().get("current_status"))) {
        SalesOrder order = get(id);
        if (isOwnCancellation(order, reason)) return order;
      }
      throw error;
    }
  }

  @SuppressWarnings("unchecked")
  static boolean isOwnCancellation(SalesOrder order, String reason) {
    List<Map<String, Object>> history = order.history();
    if (!"cancelled".equals(order.status()) || history.isEmpty()) return false;
    Map<String, Object> last = history.get(history.size() - 1);
    Map<String, Object> actor = (Map<String, Object>) last.get("actor");
    return "cancelled".equals(last.get("to"))
        && actor != null
        && "partner".equals(actor.get("type"))
        && reason.equals(last.get("reason"));
  }
}
