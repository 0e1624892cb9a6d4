// The app's providers and routes. Every page is its own chunk, loaded when first opened (the
// page a visit starts on is fetched while the session is checked), so the first page loads
// little JavaScript.
import { createTheme, MantineProvider, Menu, Modal } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useEffect, useMemo, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigationType } from "react-router";
import { ApiError } from "./api/client";
import { Layout } from "./Layout";
import { ErrorState, Loading } from "./components/states";
import { lazyPage, preloadFor } from "./lib/lazyPage";
import { SessionProvider, useMe, useSessionExpiry } from "./session";

const LoginPage = lazyPage(() => import("./pages/auth/LoginPage"));
const SignupPage = lazyPage(() => import("./pages/auth/SignupPage"));
const EmailLinkPage = lazyPage(() => import("./pages/auth/EmailLinkPage"));
const LinksPage = lazyPage(() => import("./pages/links/LinksPage"));
const LinkFormPage = lazyPage(() => import("./pages/links/LinkFormPage"));
const LinkDetailPage = lazyPage(() => import("./pages/links/LinkDetailPage"));
const PlanPage = lazyPage(() => import("./pages/plan/PlanPage"));
const PricingPage = lazyPage(() => import("./pages/plan/PricingPage"));
const ImportsPage = lazyPage(() => import("./pages/imports/ImportsPage"));
const ApiKeysPage = lazyPage(() => import("./pages/keys/ApiKeysPage"));
const WebhooksPage = lazyPage(() => import("./pages/webhooks/WebhooksPage"));
const ModerationPage = lazyPage(() => import("./pages/moderation/ModerationPage"));
const DashboardPage = lazyPage(() => import("./pages/dashboard/DashboardPage"));
const BulkPage = lazyPage(() => import("./pages/bulk/BulkPage"));
const MembersPage = lazyPage(() => import("./pages/members/MembersPage"));
const AdminPage = lazyPage(() => import("./pages/admin/AdminPage"));
const DomainsPage = lazyPage(() => import("./pages/domains/DomainsPage"));
const TagsPage = lazyPage(() => import("./pages/tags/TagsPage"));
const InvitationsPage = lazyPage(() => import("./pages/invitations/InvitationsPage"));
const SettingsPage = lazyPage(() => import("./pages/settings/SettingsPage"));
const NoWorkspacePage = lazyPage(() => import("./pages/workspace/NoWorkspacePage"));
const NotFoundPage = lazyPage(() => import("./pages/NotFoundPage"));
const ForgotPasswordPage = lazyPage(() => import("./pages/auth/ForgotPasswordPage"));
const AccountPage = lazyPage(() => import("./pages/account/AccountPage"));
const BillingPage = lazyPage(() => import("./pages/billing/BillingPage"));
const AuditPage = lazyPage(() => import("./pages/audit/AuditPage"));
const SsoPage = lazyPage(() => import("./pages/sso/SsoPage"));
const ScimPage = lazyPage(() => import("./pages/scim/ScimPage"));
const MemberSessionsPage = lazyPage(() => import("./pages/sessions/MemberSessionsPage"));
const SharePage = lazyPage(() => import("./pages/share/SharePage"));

/** A share of a link's statistics is public, at /share/{id}: outside /app and its session. */
const shared = window.location.pathname.startsWith("/share/");

// The page a visit opens is fetched while the session is checked, not after.
preloadFor(window.location.pathname.replace(/^\/app/, "") || "/", [
  [/^\/links\/(new|\d+\/edit)$/, LinkFormPage],
  [/^\/links\/\d+$/, LinkDetailPage],
  [/^\/share\//, SharePage],
  [/^\/(links\/?)?$/, LinksPage],
  [/^\/login$/, LoginPage],
  [/^\/signup$/, SignupPage],
  [/^\/dashboard$/, DashboardPage],
  [/^\/domains$/, DomainsPage],
  [/^\/members$/, MembersPage],
]);

// Menus open without Mantine's focus placeholder: its role="presentation" is no item of a menu
// (axe-core's aria-required-children, critical); opening a menu focuses its first item instead.
// Every dialog's close button is named in the reader's language (an unnamed one is axe-core's
// button-name, critical), so the theme follows the language.
function useTheme() {
  const { t } = useTranslation();
  const close = t("common.close");
  return useMemo(
    () =>
      createTheme({
        primaryColor: "blue",
        defaultRadius: "md",
        components: {
          Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
          Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": close } } }),
        },
      }),
    [close],
  );
}

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, e) => count < 2 && !(e instanceof ApiError && e.status >= 400 && e.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

export function App() {
  const theme = useTheme();
  return (
    // Mantine's CSS variables and global classes come from its CSS files (main.tsx), not from
    // <style> elements it would inject at run time: the Content-Security-Policy allows no
    // inline style but the page's own.
    <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false} forceColorScheme="light">
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        {shared ? (
          <BrowserRouter>
            <Routes>
              <Route path="/share/:id" element={<Page><SharePage /></Page>} />
            </Routes>
          </BrowserRouter>
        ) : (
        <BrowserRouter basename="/app">
          <FocusOnNavigation />
          <Routes>
            <Route path="/login" element={<Page><LoginPage /></Page>} />
            <Route path="/signup" element={<Page><SignupPage /></Page>} />
            <Route path="/verify" element={<Page><EmailLinkPage kind="verify" /></Page>} />
            <Route path="/reset-password" element={<Page><EmailLinkPage kind="reset" /></Page>} />
            <Route path="/pricing" element={<Page><PricingPage /></Page>} />
            <Route path="/forgot-password" element={<Page><ForgotPasswordPage /></Page>} />
            <Route element={<SignedIn />}>
              <Route index element={<Navigate to="/links" replace />} />
              <Route path="/links" element={<Page><LinksPage /></Page>} />
              <Route path="/links/new" element={<Page><LinkFormPage /></Page>} />
              <Route path="/links/:id" element={<Page><LinkDetailPage /></Page>} />
              <Route path="/links/:id/edit" element={<Page><LinkFormPage /></Page>} />
              <Route path="/plan" element={<Page><PlanPage /></Page>} />
              <Route path="/keys" element={<Page><ApiKeysPage /></Page>} />
              <Route path="/webhooks" element={<Page><WebhooksPage /></Page>} />
              <Route path="/moderation" element={<Page><ModerationPage /></Page>} />
              <Route path="/moderation/links/:id" element={<Page><ModerationPage /></Page>} />
              <Route path="/dashboard" element={<Page><DashboardPage /></Page>} />
              <Route path="/bulk" element={<Page><BulkPage /></Page>} />
              <Route path="/imports" element={<Page><ImportsPage /></Page>} />
              <Route path="/members" element={<Page><MembersPage /></Page>} />
              <Route path="/members/:user/sessions" element={<Page><MemberSessionsPage /></Page>} />
              <Route path="/domains" element={<Page><DomainsPage /></Page>} />
              <Route path="/tags" element={<Page><TagsPage /></Page>} />
              <Route path="/invitations" element={<Page><InvitationsPage /></Page>} />
              <Route path="/invitations/:id" element={<Page><InvitationsPage /></Page>} />
              <Route path="/settings" element={<Page><SettingsPage /></Page>} />
              <Route path="/sso" element={<Page><SsoPage /></Page>} />
              <Route path="/scim" element={<Page><ScimPage /></Page>} />
              <Route path="/admin" element={<Page><AdminPage /></Page>} />
              <Route path="/account" element={<Page><AccountPage /></Page>} />
              <Route path="/billing" element={<Page><BillingPage /></Page>} />
              <Route path="/audit" element={<Page><AuditPage /></Page>} />
              <Route path="*" element={<Page><NotFoundPage /></Page>} />
            </Route>
          </Routes>
        </BrowserRouter>
        )}
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * Moves the keyboard's focus to the page's content (#main) when the app changes page, as a
 * link between documents would; without it the focus stays where the clicked control was, or
 * nowhere. The document's first page keeps the browser's focus, so the first Tab reaches the
 * skip link. The content may still be loading: it is looked for during a second. A new page
 * opens at its top, as a document would (a link made at the bottom of its long form opened
 * scrolled past its short URL); going back keeps the browser's own place.
 */
function FocusOnNavigation() {
  const { pathname } = useLocation();
  const navigation = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigation !== "POP") window.scrollTo(0, 0);
    let tries = 0;
    const id = window.setInterval(() => {
      const main = document.getElementById("main");
      if (main || ++tries > 20) {
        window.clearInterval(id);
        main?.focus({ preventScroll: true });
      }
    }, 50);
    return () => window.clearInterval(id);
  }, [pathname]);
  return null;
}

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/** The pages of a signed-in person: the others go to the login page first. */
function SignedIn() {
  useSessionExpiry();
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading />;
  if (me.isError) return <div className="page"><ErrorState error={me.error} retry={() => void me.refetch()} /></div>;
  if (!me.data) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (me.data.workspaces.length === 0) return <Page><NoWorkspacePage user={me.data.user} /></Page>;
  return (
    <SessionProvider user={me.data.user} workspaces={me.data.workspaces}>
      <Layout />
    </SessionProvider>
  );
}
