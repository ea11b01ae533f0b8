package com.orderline.partner;

import java.security.PrivateKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A client for the Orderline partner API. Every call gets a token (login on first use, refresh
 * before expiry, once more on token_expired), a fresh millisecond timestamp on the server's clock
 * and a fresh signature; retries 429, 503, timeouts and network errors under one Idempotency-Key
 * per order; failures become {@link PartnerApiError} with the problem's code.
 */
public final class PartnerClient {
  public static final String VERSION = "0.1.0";

  private final Transport transport;
  private final Session session;
  private final SignedCaller caller;
  private final SalesOrders salesOrders;
  private final WebhookEndpoints webhookEndpoints;
  private final RequestLog requestLog;

  private PartnerClient(Builder b) {
    String baseUrl = b.baseUrl == null ? "" : b.baseUrl.replaceAll("/+$", "");
    if (!baseUrl.matches("^https?://.+")) {
      throw new IllegalArgumentException("baseUrl must start with http:// or https:// (got '" + b.baseUrl + "')");
    }
    if (b.clientId == null || b.clientId.isEmpty() || b.clientSecret == null || b.clientSecret.isEmpty()) {
      throw new IllegalArgumentException("clientId and clientSecret are required");
    }
    if (b.privateKey == null) throw new IllegalArgumentException("privateKey is required");
    if (b.signatureVersion != 1 && b.signatureVersion != 2) {
      throw new IllegalArgumentException("signatureVersion must be 1 or 2");
    }
    this.transport =
        new Transport(
            baseUrl,
            b.now,
            b.maxRetries,
            b.retryBaseDelay.toMillis(),
            b.maxRetryAfter.toMillis(),
            b.timeout,
            "orderline-partner-java/" + VERSION);
    SignedCaller[] self = new SignedCaller[1];
    this.session =
        new Session(
            transport,
            b.clientId,
            b.clientSecret,
            b.refreshMargin.toSeconds(),
            b.signLogin ? () -> self[0].loginProof() : null);
    this.caller = new SignedCaller(transport, session, b.privateKey, b.clientId, b.signatureVersion);
    self[0] = caller;
    this.salesOrders = new SalesOrders(caller);
    this.webhookEndpoints = new WebhookEndpoints(caller);
    this.requestLog = new RequestLog(caller);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Logs in now (otherwise the first call does); the token response {token, expired_at}. */
  public Map<String, Object> login() {
    return session.login();
  }

  /** The signature version in use: 1 turns into 2 for good on signature_version_required. */
  public int signatureVersion() {
    return caller.version;
  }

  public SalesOrders salesOrders() {
    return salesOrders;
  }

  /** The partner's own webhook endpoints: register, test, inspect, resend, rotate. */
  public WebhookEndpoints webhookEndpoints() {
    return webhookEndpoints;
  }

  /** The partner's own refused requests of the last 7 days. */
  public RequestLog requestLog() {
    return requestLog;
  }

  /**
   * The partner's events as they happen, after {@code lastEventId} when it is not null, of the
   * given types (null or empty: all). Close the stream to stop.
   */
  public EventStream events(List<String> events, String lastEventId) {
    return new EventStream(transport, session, caller, events, lastEventId);
  }

  public static final class Builder {
    private String baseUrl;
    private String clientId;
    private String clientSecret;
    private PrivateKey privateKey;
    private int signatureVersion = 2;
    private int maxRetries = 3;
    private Duration retryBaseDelay = Duration.ofMillis(250);
    private Duration maxRetryAfter = Duration.ofSeconds(30);
    private Duration timeout = Duration.ofSeconds(30);
    private Duration refreshMargin = Duration.ofSeconds(60);
    private boolean signLogin = true;
    private LongSupplier now = System::currentTimeMillis;

    /** The gateway, e.g. https://gateway.example.com (no trailing path). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    public Builder clientId(String clientId) {
      this.clientId = clientId;
      return this;
    }

    public Builder clientSecret(String clientSecret) {
      this.clientSecret = clientSecret;
      return this;
    }

    /** The RSA private key whose public key is registered. */
    public Builder privateKey(PrivateKey privateKey) {
      this.privateKey = privateKey;
      return this;
    }

    /** The private key as PKCS#8 or PKCS#1 PEM text. */
    public Builder privateKeyPem(String pem) {
      return privateKey(Signing.privateKeyFromPem(pem));
    }

    /** 2 (the default) signs method, path and body; 1 only client_id|timestamp. */
    public Builder signatureVersion(int version) {
      this.signatureVersion = version;
      return this;
    }

    /** Retries after a 429, a 503, a timeout or a network error (default 3). */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** First backoff step, doubled per retry, with full jitter (default 250 ms). */
    public Builder retryBaseDelay(Duration delay) {
      this.retryBaseDelay = delay;
      return this;
    }

    /** A Retry-After longer than this is not waited for (default 30 s): the error is thrown. */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = max;
      return this;
    }

    /** Per attempt (default 30 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Renew the token this long before it expires (default 60 s). */
    public Builder refreshMargin(Duration margin) {
      this.refreshMargin = margin;
      return this;
    }

    /**
     * Sign logins with the key (default true): failed logins of someone guessing the secret
     * elsewhere then never throttle this client. false sends the seed's unsigned login.
     */
    public Builder signLogin(boolean signLogin) {
      this.signLogin = signLogin;
      return this;
    }

    /** The local clock in Unix ms (default System::currentTimeMillis); the server's offset is learned. */
    public Builder clock(LongSupplier now) {
      this.now = now;
      return this;
    }

    public PartnerClient build() {
      return new PartnerClient(this);
    }
  }
}
