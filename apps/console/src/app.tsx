import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { AwaitingCount } from "./awaiting-count.js";
import { PageTitle } from "./components.js";
import { LanguageSwitcher } from "./language-switcher.js";
import { personName } from "./lib/person.js";
import { shellModule } from "./modules.js";
import { PageBoundary } from "./page-boundary.js";
import { SignInPage } from "./pages/sign-in.js";
import { href, type Route, useRoute } from "./router.js";
import { SessionProvider, useSession } from "./session.js";
import { InContextEditing } from "./vocabulary/in-context.js";
import { LiveVocabulary } from "./vocabulary/live-vocabulary.js";

// The signed-in pages load on first use: the sign-in page, the first load, carries none of them.
const OrderDetailPage = lazy(() =>
  import("./pages/order-detail.js").then((m) => ({ default: m.OrderDetailPage })),
);
const OverviewPage = lazy(() =>
  import("./pages/overview.js").then((m) => ({ default: m.OverviewPage })),
);
const OrdersPage = lazy(() => import("./pages/orders.js").then((m) => ({ default: m.OrdersPage })));
const VocabularyPage = lazy(() =>
  import("./pages/vocabulary.js").then((m) => ({ default: m.VocabularyPage })),
);
const PartnersPage = lazy(() =>
  import("./pages/partners.js").then((m) => ({ default: m.PartnersPage })),
);
const TeamPage = lazy(() => import("./pages/team.js").then((m) => ({ default: m.TeamPage })));
const ActivityPage = lazy(() =>
  import("./pages/activity.js").then((m) => ({ default: m.ActivityPage })),
);
const SetPasswordPage = lazy(() =>
  import("./pages/set-password.js").then((m) => ({ default: m.SetPasswordPage })),
);
const TwoFactorPage = lazy(() =>
  import("./pages/two-factor.js").then((m) => ({ default: m.TwoFactorPage })),
);
const IntegrationPage = lazy(() =>
  import("./pages/integration.js").then((m) => ({ default: m.IntegrationPage })),
);

const Page = ({ route }: { route: Route }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  // Overview is the landing page after sign-in: staff look before they read.
  const [section = "overview", id] = route.segments;
  if (section === "overview") return <OverviewPage />;
  if (section === "orders" && id)
    return <OrderDetailPage key={id} id={id} back={route.query.get("back")} />;
  if (section === "orders") return <OrdersPage route={route} />;
  if (section === "vocabulary") return <VocabularyPage />;
  if (section === "partners") return <PartnersPage />;
  if (section === "integration") return <IntegrationPage />;
  if (section === "team") return <TeamPage />;
  if (section === "activity") return <ActivityPage />;
  if (section === "two-factor") return <TwoFactorPage />;
  return <PageTitle>{t("errors.notFound")}</PageTitle>;
};

/** A link of the header's navigation, marked when it is the page shown. */
const NavLink = ({
  section,
  current,
  children,
}: {
  section: string;
  current: string;
  children: ReactNode;
}) => (
  <li>
    <a href={href(section)} aria-current={current === section ? "page" : undefined}>
      {children}
    </a>
  </li>
);

/** The console's sections; admins also get the vocabulary, partners and activity. */
const MainNav = ({ current, admin }: { current: string; admin: boolean }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  return (
    <nav aria-label={t("nav.label")}>
      <ul>
        <NavLink section="overview" current={current}>
          {t("nav.overview")}
        </NavLink>
        <NavLink section="orders" current={current}>
          {t("nav.orders")}
          <AwaitingCount />
        </NavLink>
        <NavLink section="integration" current={current}>
          {t("nav.integration")}
        </NavLink>
        {admin && (
          <NavLink section="vocabulary" current={current}>
            {t("nav.vocabulary")}
          </NavLink>
        )}
        {admin && (
          <NavLink section="partners" current={current}>
            {t("nav.partners")}
          </NavLink>
        )}
        <NavLink section="team" current={current}>
          {t("nav.team")}
        </NavLink>
        {admin && (
          <NavLink section="activity" current={current}>
            {t("nav.activity")}
          </NavLink>
        )}
      </ul>
    </nav>
  );
};

/** Who is signed in, their two-step sign-in, the language, in-context editing and sign-out. */
const AccountBar = ({ current }: { current: string }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { profile, signOut } = useSession();
  return (
    <div className="account">
      {/* Who is signed in and their own sign-in settings, stacked: the header stays one row. */}
      <div className="who">
        {profile && (
          <p className="signed-in" title={profile.email}>
            {t("account.signedInAs", {
              name: personName(profile),
              // Still filled in for tenant wording saved when this text named the email.
              email: profile.email,
              tenant: profile.tenant.name,
            })}
          </p>
        )}
        <a href={href("two-factor")} aria-current={current === "two-factor" ? "page" : undefined}>
          {t("nav.twoFactor")}
        </a>
      </div>
      <LanguageSwitcher />
      {profile?.role === "admin" && <InContextEditing />}
      <button type="button" className="quiet" onClick={() => void signOut()}>
        {t("actions.signOut")}
      </button>
    </div>
  );
};

/**
 * The tenant requires two-step sign-in of this user, who has not set it up: only the set-up
 * (the gateway refuses everything else with 403 two_factor_enrolment_required).
 */
const EnrolmentShell = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { signOut } = useSession();
  return (
    <>
      <header className="top">
        <p className="brand">{t("app.name")}</p>
        <div className="account">
          <LanguageSwitcher />
          <button type="button" className="quiet" onClick={() => void signOut()}>
            {t("actions.signOut")}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={null}>
          <TwoFactorPage />
        </Suspense>
      </main>
    </>
  );
};

const Shell = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { session, profile, mustEnrol } = useSession();
  const route = useRoute();
  // The phone's menu: open until the next page (a followed link closes it).
  const [menuOpen, setMenuOpen] = useState(false);
  const path = route.segments.join("/");
  useEffect(() => {
    if (path !== undefined) setMenuOpen(false);
  }, [path]);
  // A set-password link opens its page whether or not someone is signed in in this tab.
  if (route.segments[0] === "set-password")
    return (
      <Suspense fallback={null}>
        <SetPasswordPage token={route.query.get("token") ?? ""} />
      </Suspense>
    );
  // Nothing until the gateway said whether this browser is signed in: no sign-in form flashes
  // in a tab that is.
  if (session === undefined) return null;
  if (!session) return <SignInPage />;
  if (mustEnrol) return <EnrolmentShell />;
  const current = route.segments[0] ?? "overview";
  return (
    <>
      {session.tenantId && <LiveVocabulary tenantId={session.tenantId} />}
      <a className="skip" href="#main">
        {t("nav.skip")}
      </a>
      <header className={menuOpen ? "top open" : "top"}>
        <p className="brand">{t("app.name")}</p>
        <button
          type="button"
          className="menu-toggle secondary"
          // Stays the way to the menu while words are edited in place (not a word to edit).
          data-in-context-ignore
          aria-expanded={menuOpen}
          aria-controls="top-menu"
          aria-label={t("menu.label")}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span> {t("menu.open")}
        </button>
        <div id="top-menu" className="top-menu">
          <MainNav current={current} admin={profile?.role === "admin"} />
          <AccountBar current={current} />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <PageBoundary key={route.segments.join("/")}>
          <Suspense fallback={null}>
            <Page route={route} />
          </Suspense>
        </PageBoundary>
      </main>
    </>
  );
};

export const App = () => (
  <EnterpriseModuleProvider module={shellModule}>
    <SessionProvider>
      <Shell />
    </SessionProvider>
  </EnterpriseModuleProvider>
);
