package com.orderline.partner;

/**
 * A webhook delivery that must not be trusted: answer it with a 4xx (400 is usual). {@link
 * #reason()} says why, for logs: header_missing, header_malformed, no_matching_signature,
 * timestamp_outside_tolerance or payload_not_json.
 */
public class WebhookSignatureError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String reason;

  public WebhookSignatureError(String reason, String message) {
    super(message);
    this.reason = reason;
  }

  public String reason() {
    return reason;
  }
}
