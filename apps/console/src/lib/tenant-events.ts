/**
 * PLACEHOLDER until the `events` branch (owner of the tenant event stream) is merged: the
 * documented contract, `subscribeTenantEvents(onEvent): unsubscribe`, with no connection.
 */
export interface TenantEvent {
  id?: string;
  type: string;
  data: unknown;
}

export const subscribeTenantEvents = (_onEvent: (event: TenantEvent) => void): (() => void) => {
  return () => {};
};
