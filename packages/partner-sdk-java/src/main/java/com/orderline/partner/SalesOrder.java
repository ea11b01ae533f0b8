package com.orderline.partner;

import java.util.List;
import java.util.Map;

/** One sales order; {@link #history()} is filled by get and cancel (oldest change first). */
public class SalesOrder extends JsonObject {
  public SalesOrder(Map<String, Object> raw) {
    super(raw);
  }

  public String id() {
    return string("id");
  }

  /** SO-00000001 */
  public String orderNumber() {
    return string("order_number");
  }

  /** received, accepted, rejected, fulfilled or cancelled. */
  public String status() {
    return string("status");
  }

  public String purchaseOrderNo() {
    return string("purchase_order_no");
  }

  /** 1 at creation, +1 on every status change. */
  public long version() {
    return number("version");
  }

  /** Each change: {from, to, at, reason, actor: {type, name}}. */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> history() {
    return (List<Map<String, Object>>) (List<?>) list("history");
  }
}
