import { useTenantEvents } from "../lib/tenant-events.js";
import { useSession } from "../session.js";
import { refreshVocabulary } from "../tenant-words.js";

/**
 * Keeps the tenant's words on screen current: on each `vocabulary.changed` event of the tenant
 * event stream (any admin, any tab, the CLI) the changed namespace is fetched again and its
 * words re-applied through the engine, without a reload. Renders nothing.
 */
export const LiveVocabulary = ({ tenantId }: { tenantId: string }) => {
  const { api } = useSession();
  useTenantEvents((event) => {
    if (event.type !== "vocabulary.changed") return;
    const data = event.data as { namespace?: unknown; language?: unknown };
    if (typeof data.namespace !== "string" || typeof data.language !== "string") return;
    void refreshVocabulary(api, tenantId, {
      namespaces: [data.namespace],
      languages: [data.language],
    });
  });
  return null;
};
