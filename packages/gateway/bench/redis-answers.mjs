/**
 * Whether Redis answers at `url`: multi-instance benchmarks share a rate-limit counter there, and
 * tests skip (or, in CI, refuse) their shared-counter cases without it.
 */
export async function redisAnswers(url) {
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
