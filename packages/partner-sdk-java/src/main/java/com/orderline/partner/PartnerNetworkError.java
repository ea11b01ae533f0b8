package com.orderline.partner;

/** The gateway could not be reached (or did not answer in time), also after the retries. */
public class PartnerNetworkError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int attempts;

  public PartnerNetworkError(String message, int attempts, Throwable cause) {
    super(message, cause);
    this.attempts = attempts;
  }

  public int attempts() {
    return attempts;
  }
}
