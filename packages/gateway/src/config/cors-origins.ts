/** GATEWAY_CORS_ORIGINS: comma-separated origins, each exactly `scheme://host[:port]`. */
export function corsOriginsFrom(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [];
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let origin: string;
      try {
        origin = new URL(entry).origin;
      } catch {
        origin = "null";
      }
      if (origin === "null" || origin !== entry.replace(/\/$/, "")) {
        throw new Error(
          `GATEWAY_CORS_ORIGINS entries must be origins like https://app.example.com, got '${entry}'`,
        );
      }
      return origin;
    });
}
