#!/bin/sh
# Verifies one Orderline webhook delivery with sh and openssl: for checking by hand what a
# receiver got (a logged body and header), and a recipe to port. Usage:
#   ORDERLINE_WEBHOOK_SECRET=whsec_… sh verify-webhook.sh body.json 't=…,v1=…'
# Exit 0 verified, 1 rejected (the reason is printed), 2 usage.
set -eu

body_file=${1:?usage: sh verify-webhook.sh BODY_FILE HEADER}
header=${2:?usage: sh verify-webhook.sh BODY_FILE HEADER}
secret=${ORDERLINE_WEBHOOK_SECRET:?set ORDERLINE_WEBHOOK_SECRET}
tolerance=${ORDERLINE_WEBHOOK_TOLERANCE:-300}

hmac_hex() { # key; the message on stdin
  openssl dgst -sha256 -hmac "$1" -r | cut -d' ' -f1
}

# 1. Parse "t=<unix seconds>,v1=<hex>[,v1=<hex>…]"; entries of other schemes are skipped.
t=$(printf '%s\n' "$header" | tr ',' '\n' | sed -n 's/^ *t=\([0-9][0-9]*\) *$/\1/p' | head -n 1)
signatures=$(printf '%s\n' "$header" | tr ',' '\n' | sed -n 's/^ *v1=\([0-9a-fA-F]\{64\}\) *$/\1/p' | tr 'A-F' 'a-f')
if [ -z "$t" ] || [ -z "$signatures" ]; then
  echo "rejected: header missing or malformed"
  exit 1
fi

# 2. HMAC-SHA256 keyed by the secret string over "<t>." followed by the body's exact bytes.
expected=$( { printf '%s.' "$t"; cat "$body_file"; } | hmac_hex "$secret")

# 3. Compare HMACs of both values under a one-off random key: a plain string comparison would
#    stop at the first differing character; these digests differ everywhere unless equal.
blind=$(openssl rand -hex 32)
expected_blind=$(printf '%s' "$expected" | hmac_hex "$blind")
matched=no
for signature in $signatures; do
  if [ "$(printf '%s' "$signature" | hmac_hex "$blind")" = "$expected_blind" ]; then matched=yes; fi
done
if [ "$matched" != yes ]; then
  echo "rejected: no matching signature"
  exit 1
fi

# 4. Refuse replays: the timestamp must be within the tolerance of now, either way.
age=$(( $(date +%s) - $(printf '%s' "$t" | sed 's/^0*\([0-9]\)/\1/') ))  # no leading 0: not octal
if [ "$age" -lt 0 ]; then age=$(( -age )); fi
if [ "$age" -gt "$tolerance" ]; then
  echo "rejected: timestamp outside the tolerance"
  exit 1
fi

id=$(grep -o '"evt_[^"]*"' "$body_file" | head -n 1 | tr -d '"')
echo "verified ${id:-(no id)}"
