import type pg from "pg";

/**
 * LISTENs on `channels` over one connection of the pool (held until stopped), calling
 * `onNotification` with each one's channel and payload, sent by any instance. `onListening` runs each time the
 * LISTEN is in place (at first and after a reconnect): what was sent meanwhile was missed, so
 * callers look for it then. A lost connection is replaced a second later. Returns how to stop.
 */
export function listenOn(
  pool: pg.Pool,
  channels: readonly string[],
  onNotification: (channel: string, payload: string) => void,
  onListening: () => void = () => {},
): () => Promise<void> {
  let held: { client: pg.PoolClient; release: (error?: Error) => void } | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const listen = async () => {
    try {
      const connected = await pool.connect();
      // A client may report several errors, or one after it was released on stop: it goes
      // back to the pool once, or pg-pool throws from inside the error event.
      let released = false;
      const release = (error?: Error) => {
        if (released) return;
        released = true;
        connected.release(error);
      };
      held = { client: connected, release };
      connected.on("notification", (message) => {
        if (channels.includes(message.channel))
          onNotification(message.channel, message.payload ?? "");
      });
      connected.on("error", (error) => {
        if (held?.client === connected) held = undefined;
        release(error);
        if (!stopped && !retry) retry = setTimeout(relisten, 1000).unref();
      });
      for (const channel of channels) await connected.query(`LISTEN ${channel}`);
      if (stopped) release();
      else onListening();
    } catch {
      if (!stopped && !retry) retry = setTimeout(relisten, 1000).unref();
    }
  };
  const relisten = () => {
    retry = undefined;
    void listen();
  };
  void listen();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const listening = held;
    held = undefined;
    if (listening) {
      await listening.client.query("UNLISTEN *").catch(() => {});
      listening.release();
    }
  };
}
