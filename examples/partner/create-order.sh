#!/bin/sh
# Logs in and creates one sales order signed with signature version 2, using curl and openssl only.
# Run: ORDERLINE_BASE_URL=... ORDERLINE_CLIENT_ID=... ORDERLINE_CLIENT_SECRET=... \
#      ORDERLINE_PRIVATE_KEY_FILE=private.pem sh create-order.sh
set -eu
: "${ORDERLINE_BASE_URL:?set ORDERLINE_BASE_URL}" "${ORDERLINE_CLIENT_ID:?set ORDERLINE_CLIENT_ID}"
: "${ORDERLINE_CLIENT_SECRET:?set ORDERLINE_CLIENT_SECRET}" "${ORDERLINE_PRIVATE_KEY_FILE:?set ORDERLINE_PRIVATE_KEY_FILE}"

# 1. Log in: client credentials for a 12-hour token. The JSON is built with printf so that the
#    secret never appears on a command line other processes can read. The login is signed like
#    an order (client_id|timestamp): it proves the key, so failed logins of someone guessing
#    the secret elsewhere never throttle it.
LOGIN_TIMESTAMP=$(date +%s)
LOGIN_SIGNATURE=$(printf '%s|%s' "$ORDERLINE_CLIENT_ID" "$LOGIN_TIMESTAMP" \
  | openssl dgst -sha256 -sign "$ORDERLINE_PRIVATE_KEY_FILE" | openssl base64 -A)
TOKEN=$(printf '{"client_id":"%s","client_secret":"%s"}' "$ORDERLINE_CLIENT_ID" "$ORDERLINE_CLIENT_SECRET" \
  | curl -sS -X POST "$ORDERLINE_BASE_URL/api/v1/auth/login" -H 'Content-Type: application/json' \
      -H "X-CLIENT-ID: $ORDERLINE_CLIENT_ID" -H "X-TIMESTAMP: $LOGIN_TIMESTAMP" -H "X-SIGNATURE: $LOGIN_SIGNATURE" \
      --data-binary @- \
  | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "login failed" >&2; exit 1; }

# 2. The exact bytes to send; the signature covers their SHA-256.
BODY='{"customer_code":"CUST-001","site_code":"SITE-01","sales_name":"Dana Sales","address":"1 Harbour Road, Springfield","purchase_order_no":null,"products":[{"product_code":"SKU-1001","quantity":2,"uom":"EA","unit_price":9.5}]}'
METHOD=POST
TARGET=/api/v1/sales-orders
TIMESTAMP=$(date +%s)
DIGEST=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)

# 3. Version 2 string-to-sign: six lines, no trailing newline (printf, never echo).
SIGNATURE=$(printf 'v2\n%s\n%s\n%s\n%s\n%s' "$ORDERLINE_CLIENT_ID" "$TIMESTAMP" "$METHOD" "$TARGET" "$DIGEST" \
  | openssl dgst -sha256 -sign "$ORDERLINE_PRIVATE_KEY_FILE" | openssl base64 -A)

# 4. Send it, with an Idempotency-Key so that a retry after a lost answer cannot create twice.
RESPONSE=$(curl -sS -X "$METHOD" "$ORDERLINE_BASE_URL$TARGET" \
  -H 'Content-Type: application/json' \
  -H "Authorization: Bearer $TOKEN" \
  -H "X-CLIENT-ID: $ORDERLINE_CLIENT_ID" \
  -H "X-TIMESTAMP: $TIMESTAMP" \
  -H 'X-SIGNATURE-VERSION: 2' \
  -H "X-SIGNATURE: $SIGNATURE" \
  -H "Idempotency-Key: $(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
  --data-binary "$BODY" -w '\n%{http_code}')
STATUS=$(printf '%s' "$RESPONSE" | tail -n 1)
printf '%s\n' "$RESPONSE" | sed '$d'
echo "HTTP $STATUS"
[ "$STATUS" = 201 ]
