/**
 * X-TIMESTAMP values in Unix milliseconds on the server's clock (`serverNow`), never the same
 * twice: each attempt (a retry included) is a request of its own, which the gateway refuses to
 * see twice (request_replayed), even two identical orders or a retry within one second.
 */
export function timestampSource(serverNow: () => number): () => string {
  let lastTimestamp = 0;
  return () => {
    const now = Math.floor(serverNow());
    // After the clock estimate moved back (a correction), start again from it: the timestamps
    // ahead were refused as out of the window, so none of them was ever accepted.
    lastTimestamp = now > lastTimestamp || lastTimestamp - now > 1000 ? now : lastTimestamp + 1;
    return String(lastTimestamp);
  };
}
