// Verifies one Orderline webhook delivery with the JDK alone (javax.crypto, java.security).
//   ORDERLINE_WEBHOOK_SECRET=whsec_... java VerifyWebhook.java body.json 't=...,v1=...'
// In a servlet or Spring handler, pass the raw request body bytes (before any JSON binding).
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class VerifyWebhook {
    static final long TOLERANCE_SECONDS =
            Long.parseLong(System.getenv().getOrDefault("ORDERLINE_WEBHOOK_TOLERANCE", "300"));

    /** Returns normally when the delivery is authentic and fresh; throws with the reason otherwise. */
    static void verify(byte[] body, String header, String secret, long nowSeconds) throws Exception {
        // 1. Parse "t=<unix seconds>,v1=<hex>[,v1=<hex>...]"; entries of other schemes are skipped.
        String t = null;
        List<byte[]> signatures = new ArrayList<>();
        for (String part : (header == null ? "" : header).split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length != 2) continue;
            if (kv[0].equals("t") && kv[1].matches("\\d+")) t = kv[1];
            if (kv[0].equals("v1") && kv[1].matches("[0-9a-fA-F]{64}")) signatures.add(HexFormat.of().parseHex(kv[1]));
        }
        if (t == null || signatures.isEmpty()) throw new SecurityException("header missing or malformed");
        // 2. HMAC-SHA256 keyed by the secret string (UTF-8) over "<t>." + the raw body, as received.
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write((t + ".").getBytes(StandardCharsets.UTF_8));
        message.write(body);
        byte[] expected = mac.doFinal(message.toByteArray());
        // 3. Constant-time comparison (MessageDigest.isEqual); any v1 may match (secret rotation).
        boolean matched = false;
        for (byte[] signature : signatures) matched |= MessageDigest.isEqual(signature, expected);
        if (!matched) throw new SecurityException("no matching signature");
        // 4. Refuse replays: the timestamp must be within the tolerance of now, either way.
        if (Math.abs(nowSeconds - Long.parseLong(t)) > TOLERANCE_SECONDS) {
            throw new SecurityException("timestamp outside the tolerance");
        }
    }

    public static void main(String[] args) throws Exception {
        String secret = System.getenv("ORDERLINE_WEBHOOK_SECRET");
        if (secret == null || secret.isEmpty() || args.length != 2) {
            System.err.println("usage: ORDERLINE_WEBHOOK_SECRET=... java VerifyWebhook.java BODY_FILE HEADER");
            System.exit(2);
        }
        byte[] body = Files.readAllBytes(Path.of(args[0]));
        try {
            verify(body, args[1], secret, System.currentTimeMillis() / 1000);
        } catch (SecurityException e) {
            System.out.println("rejected: " + e.getMessage());
            System.exit(1);
        }
        // Parse the JSON with the library the application already uses; here only the event id is shown.
        Matcher id = Pattern.compile("\"(evt_[^\"]+)\"").matcher(new String(body, StandardCharsets.UTF_8));
        System.out.println("verified " + (id.find() ? id.group(1) : "(no id)"));
    }
}
