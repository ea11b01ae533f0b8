/**
 * The real gateway for the SDK's tests: started in-process on a free port with a fresh SQLite
 * store (the gateway's own test helpers), reached over a real socket.
 */
import type { AddressInfo } from "node:net";
import type { Gateway } from "../../../gateway/src/gateway.js";
import {
  createPartner,
  type FakeClock,
  order,
  startGateway,
  type TestGatewayOptions,
  type TestPartner,
} from "../../../gateway/test/helpers.js";

export { FakeClock, rsaKeys } from "../../../gateway/test/helpers.js";
export { createPartner, order, type TestPartner };

export interface RunningGateway {
  gw: Gateway;
  url: string;
  close(): Promise<void>;
}

export async function runGateway(
  clock?: FakeClock,
  config: TestGatewayOptions["config"] = {},
): Promise<RunningGateway> {
  const gw = await startGateway({
    ...(clock ? { clock } : {}),
    config: { partnerCacheMs: 0, ...config },
  });
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  return { gw, url, close: () => gw.close() };
}
