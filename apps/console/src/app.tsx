import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { lazy, Suspense } from "react";
import { PageTitle } from "./components.js";
import { LanguageSwitcher } from "./language-switcher.js";
import { shellModule } from "./modules.js";
import { SignInPage } from "./pages/sign-in.js";
import { href, type Route, useRoute } from "./router.js";
import { SessionProvider, useSession } from "./session.js";
import { InContextEditing } from "./vocabulary/in-context.js";
import { LiveVocabulary } from "./vocabulary/live-vocabulary.js";

// The signed-in pages load on first use: the sign-in page, the first load, carries none of them.
const OrderDetailPage = lazy(() =>
  import("./pages/order-detail.js").then((m) => ({ default: m.OrderDetailPage })),
);
const OrdersPage = lazy(() => import("./pages/orders.js").then((m) => ({ default: m.OrdersPage })));
const VocabularyPage = lazy(() =>
  import("./pages/vocabulary.js").then((m) => ({ default: m.VocabularyPage })),
);
const PartnersPage = lazy(() =>
  import("./pages/partners.js").then((m) => ({ default: m.PartnersPage })),
);
const IntegrationPage = lazy(() =>
  import("./pages/integration.js").then((m) => ({ default: m.IntegrationPage })),
);

const Page = ({ route }: { route: Route }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [section = "orders", id] = route.segments;
  if (section === "orders" && id) return <OrderDetailPage key={id} id={id} />;
  if (section === "orders") return <OrdersPage route={route} />;
  if (section === "vocabulary") return <VocabularyPage />;
  if (section === "partners") return <PartnersPage />;
  if (section === "integration") return <IntegrationPage />;
  return <PageTitle>{t("errors.notFound")}</PageTitle>;
};

const Shell = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { session, profile, signOut } = useSession();
  const route = useRoute();
  if (!session) return <SignInPage />;
  const current = route.segments[0] ?? "orders";
  return (
    <>
      {session.tenantId && <LiveVocabulary tenantId={session.tenantId} />}
      <a className="skip" href="#main">
        {t("nav.skip")}
      </a>
      <header className="top">
        <p className="brand">{t("app.name")}</p>
        <nav aria-label={t("nav.label")}>
          <ul>
            <li>
              <a href={href("orders")} aria-current={current === "orders" ? "page" : undefined}>
                {t("nav.orders")}
              </a>
            </li>
            <li>
              <a
                href={href("integration")}
                aria-current={current === "integration" ? "page" : undefined}
              >
                {t("nav.integration")}
              </a>
            </li>
            {profile?.role === "admin" && (
              <li>
                <a
                  href={href("vocabulary")}
                  aria-current={current === "vocabulary" ? "page" : undefined}
                >
                  {t("nav.vocabulary")}
                </a>
              </li>
            )}
            {profile?.role === "admin" && (
              <li>
                <a
                  href={href("partners")}
                  aria-current={current === "partners" ? "page" : undefined}
                >
                  {t("nav.partners")}
                </a>
              </li>
            )}
          </ul>
        </nav>
        <div className="account">
          {profile && (
            <p>{t("account.signedInAs", { email: profile.email, tenant: profile.tenant.name })}</p>
          )}
          <LanguageSwitcher />
          {profile?.role === "admin" && <InContextEditing />}
          <button type="button" onClick={signOut}>
            {t("actions.signOut")}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={null}>
          <Page key={route.segments.join("/")} route={route} />
        </Suspense>
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
