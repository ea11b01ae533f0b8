import { changeLanguage, i18n } from "@orderline/i18n";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { LANGUAGES } from "./i18n.js";
import { type Api, createApi, login, type Session, sessionStore } from "./lib/api.js";
import { clearTenantStorage } from "./lib/tenant-storage.js";
import { applyCachedTenantWords, refreshTenantWords } from "./tenant-words.js";

export interface Profile {
  id: string;
  email: string;
  role: "admin" | "member";
  language: string;
  tenant: { id: string; name: string };
  supported_languages: string[];
}

interface SessionContextValue {
  api: Api;
  session: Session | null;
  profile: Profile | null;
  /** Why the last session ended without the user signing out, if it did. */
  ended: boolean;
  signIn(email: string, password: string): Promise<void>;
  signOut(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export const useSession = (): SessionContextValue => {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside <SessionProvider>");
  return value;
};

/** Refresh this long before the token expires, so a call never meets an expired token. */
const REFRESH_AHEAD_MS = 60_000;

const ENDED_KEY = "orderline-console:session-ended";

/**
 * Leaves the signed-in console (signing out, or a session that ended) by forgetting the token
 * and every tenant-scoped entry in storage, then reloading the page: the engine keeps the
 * tenant's words in memory, and a reload is the one way to be sure the next user (maybe of
 * another tenant) sees none of them.
 */
const leave = (ended: boolean) => {
  sessionStore.clear();
  clearTenantStorage();
  if (ended) sessionStorage.setItem(ENDED_KEY, "1");
  window.location.reload();
};

export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [session, setSession] = useState<Session | null>(() => {
    const restored = sessionStore.read();
    // No session in this tab (closed, or never signed in): nothing of a tenant may linger.
    if (!restored) clearTenantStorage();
    return restored;
  });
  const [profile, setProfile] = useState<Profile | null>(null);
  const [ended] = useState(() => sessionStorage.getItem(ENDED_KEY) === "1");
  useEffect(() => sessionStorage.removeItem(ENDED_KEY), []);
  const api = useMemo(() => createApi(() => leave(true)), []);

  // The profile of a restored session (reload), then the tenant's current words.
  useEffect(() => {
    if (!session || profile) return;
    let cancelled = false;
    api
      .request<{ data: Profile }>("GET", "/v1/user/profile")
      .then(({ body }) => {
        if (cancelled) return;
        setProfile(body.data);
        void refreshTenantWords(api, session.tenantId, i18n.language);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [api, session, profile]);

  // Keep the token fresh while the console is open.
  useEffect(() => {
    if (!session) return;
    const delay = Math.min(session.expiredAt * 1000 - Date.now() - REFRESH_AHEAD_MS, 2 ** 31 - 1);
    const timer = setTimeout(
      () => {
        api
          .refresh()
          .then(setSession)
          .catch(() => {});
      },
      Math.max(delay, 0),
    );
    return () => clearTimeout(timer);
  }, [api, session]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { token, expired_at } = await login(email, password);
      sessionStore.write({ token, expiredAt: expired_at, tenantId: "" });
      const { body } = await api
        .request<{ data: Profile }>("GET", "/v1/user/profile")
        .catch((error: unknown) => {
          sessionStore.clear();
          throw error;
        });
      const next = { token, expiredAt: expired_at, tenantId: body.data.tenant.id };
      sessionStore.write(next);
      // The profile language is the user's choice: the console follows it when it speaks it.
      const language = LANGUAGES.find((l) => l.code === body.data.language)?.code;
      if (language && language !== i18n.language) await changeLanguage(language);
      applyCachedTenantWords(next.tenantId, i18n.language);
      await refreshTenantWords(api, next.tenantId, i18n.language);
      setProfile(body.data);
      setSession(next);
    },
    [api],
  );

  const signOut = useCallback(() => leave(false), []);

  const value = useMemo(
    () => ({ api, session, profile, ended, signIn, signOut }),
    [api, session, profile, ended, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
};
