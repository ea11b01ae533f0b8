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
import {
  type Api,
  createApi,
  endSession,
  finishSession,
  probeSession,
  type SecondFactorProof,
  type Session,
  startSession,
  tenantHint,
} from "./lib/api.js";
import { clearTenantStorage } from "./lib/tenant-storage.js";
import { applyCachedTenantWords, refreshTenantWords } from "./tenant-words.js";

export interface Profile {
  id: string;
  /** The display name; null when none is set (shown by the email). */
  name: string | null;
  email: string;
  role: "admin" | "member";
  language: string;
  tenant: { id: string; name: string };
  supported_languages: string[];
}

interface SessionContextValue {
  api: Api;
  /** Null when signed out; undefined while the first look at the server's session is out. */
  session: Session | null | undefined;
  profile: Profile | null;
  /** Why the last session ended without the user signing out, if it did. */
  ended: boolean;
  /** Throws the problem second_factor_required (with its challenge) for a second step. */
  signIn(email: string, password: string): Promise<void>;
  /** The second step of a sign-in: the challenge and the app's code or a recovery code. */
  finishSignIn(challenge: string, proof: SecondFactorProof): Promise<void>;
  /**
   * The tenant requires two-step sign-in of this user and they have not set it up: the console
   * shows only its set-up (the gateway refuses everything else anyway).
   */
  mustEnrol: boolean;
  /** The set-up is done (the recovery codes were seen): the console opens. */
  enrolled(): void;
  signOut(): Promise<void>;
  /** The profile as the gateway answered a change of it (the header follows a new name). */
  updateProfile(profile: Profile): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export const useSession = (): SessionContextValue => {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside <SessionProvider>");
  return value;
};

const ENDED_KEY = "orderline-console:session-ended";

/**
 * Leaves the signed-in console (signing out, or a session that ended) by forgetting every
 * tenant-scoped entry in storage, then reloading the page: the engine keeps the tenant's words
 * in memory, and a reload is the one way to be sure the next user (maybe of another tenant)
 * sees none of them.
 */
const leave = (ended: boolean) => {
  clearTenantStorage();
  if (ended) sessionStorage.setItem(ENDED_KEY, "1");
  window.location.reload();
};

/** The console follows the profile's language when it speaks it. */
const followLanguage = async (profile: Profile): Promise<void> => {
  const language = LANGUAGES.find((l) => l.code === profile.language)?.code;
  if (language && language !== i18n.language) await changeLanguage(language);
};

export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [ended] = useState(() => sessionStorage.getItem(ENDED_KEY) === "1");
  const [mustEnrol, setMustEnrol] = useState(false);

  useEffect(() => sessionStorage.removeItem(ENDED_KEY), []);
  // A call refused with 401 once signed in: the session ended elsewhere (another tab signed
  // out, an admin ended it, it timed out).
  const api = useMemo(
    () =>
      createApi(
        () => leave(true),
        () => setMustEnrol(true),
      ),
    [],
  );

  /** Is a set-up due before anything else? Asked once the session is known. */
  const checkEnrolment = useCallback(async (): Promise<boolean> => {
    const { body } = await api.request<{ data: { enabled: boolean; required: boolean } }>(
      "GET",
      "/v1/user/two-factor",
    );
    const due = body.data.required && !body.data.enabled;
    setMustEnrol(due);
    return due;
  }, [api]);

  // Is this browser signed in? The cookie is the gateway's to read: ask it. A tab opened from
  // another (Ctrl+click) shares the cookie, so it comes up signed in.
  useEffect(() => {
    let cancelled = false;
    void probeSession<Profile>().then(async (found) => {
      if (cancelled) return;
      if (!found) {
        // Signed out: nothing of a tenant may linger.
        clearTenantStorage();
        setSession(null);
        return;
      }
      tenantHint.write(found.tenant.id);
      const due = await checkEnrolment().catch(() => false);
      if (cancelled) return;
      setProfile(found);
      setSession({ tenantId: found.tenant.id });
      // The tenant's words are the gateway's to refuse until a due set-up is done.
      if (!due) void refreshTenantWords(api, found.tenant.id, i18n.language);
    });
    return () => {
      cancelled = true;
    };
  }, [api, checkEnrolment]);

  /** The session cookie is set: the profile, its language and words, then the console. */
  const enter = useCallback(async () => {
    const { body } = await api.request<{ data: Profile }>("GET", "/v1/user/profile");
    const next = { tenantId: body.data.tenant.id };
    tenantHint.write(next.tenantId);
    await followLanguage(body.data);
    if (!(await checkEnrolment())) {
      applyCachedTenantWords(next.tenantId, i18n.language);
      await refreshTenantWords(api, next.tenantId, i18n.language);
    }
    setProfile(body.data);
    setSession(next);
  }, [api, checkEnrolment]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      await startSession(email, password);
      await enter();
    },
    [enter],
  );

  const finishSignIn = useCallback(
    async (challenge: string, proof: SecondFactorProof) => {
      await finishSession(challenge, proof);
      await enter();
    },
    [enter],
  );

  const enrolled = useCallback(() => {
    setMustEnrol(false);
    if (profile) void refreshTenantWords(api, profile.tenant.id, i18n.language);
  }, [api, profile]);

  const signOut = useCallback(async () => {
    await endSession();
    leave(false);
  }, []);

  const value = useMemo(
    () => ({
      api,
      session,
      profile,
      ended,
      signIn,
      finishSignIn,
      mustEnrol,
      enrolled,
      signOut,
      updateProfile: setProfile,
    }),
    [api, session, profile, ended, signIn, finishSignIn, mustEnrol, enrolled, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
};
