// The operators' pages: system figures, workspaces and their plans, users and their roles,
// and the audit log of moderation decisions.
import { Anchor, Badge, Button, Group, NativeSelect, SegmentedControl, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap, type Schemas } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { ConfirmDialog } from "../../components/confirm";
import { DaysChart } from "../../components/DaysChart";
import { Figure } from "../../components/Figure";
import { ErrorState, FormError, Loading } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime, timeZone } from "../../lib/format";
import { current, firstPage, next, pageNumber, previous, type CursorStack } from "../../lib/pages";

type Tab = "system" | "workspaces" | "users" | "audit";

export default function AdminPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>("system");
  return (
    <Stack>
      <Title order={2}>{t("admin.title")}</Title>
      <SegmentedControl
        w="fit-content"
        value={tab}
        onChange={(v) => setTab(v as Tab)}
        data={(["system", "workspaces", "users", "audit"] as const).map((v) => ({ value: v, label: t(`admin.tabs.${v}`) }))}
        data-testid="admin-tab"
      />
      {tab === "system" && <System />}
      {tab === "workspaces" && <Workspaces />}
      {tab === "users" && <Users />}
      {tab === "audit" && <Audit />}
    </Stack>
  );
}

function System() {
  const { t } = useTranslation();
  const stats = useQuery({
    queryKey: ["admin", "stats"],
    queryFn: () => unwrap(api.GET("/api/v1/admin/stats", { params: { query: { tz: timeZone() } } })),
    refetchInterval: 10_000,
  });
  if (stats.isPending) return <Loading />;
  if (stats.isError) return <ErrorState error={stats.error} retry={() => void stats.refetch()} />;
  const s = stats.data;
  return (
    <Stack>
      <Group className="figures">
        <Figure label={t("admin.users")} value={s.users} testId="admin-users" />
        <Figure label={t("admin.workspaces")} value={s.workspaces} />
        <Figure label={t("dashboard.linksToday")} value={s.today.links} />
        <Figure label={t("dashboard.visitsToday")} value={s.today.visits} />
      </Group>
      <DaysChart days={s.days} />
    </Stack>
  );
}

function Pager({ pages, setPages, nextCursor }: { pages: CursorStack; setPages: (p: CursorStack) => void; nextCursor?: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="xs">
      <Button variant="default" size="xs" disabled={pageNumber(pages) === 1} onClick={() => setPages(previous(pages))}>
        {t("common.previous")}
      </Button>
      <Button variant="default" size="xs" disabled={!nextCursor} onClick={() => setPages(next(pages, nextCursor ?? ""))}>
        {t("common.next")}
      </Button>
    </Group>
  );
}

/** An operator listing a page at a time: fetch reads the page a cursor opens (undefined: the first). */
function usePaged<T extends { next_cursor?: string }>(name: string, fetch: (cursor: string | undefined) => Promise<T>) {
  const [pages, setPages] = useState(firstPage);
  const list = useQuery({
    queryKey: ["admin", name, current(pages)],
    queryFn: () => fetch(current(pages) || undefined),
    placeholderData: keepPreviousData,
  });
  return { pages, setPages, list };
}

/** A change to the rows of an operator listing, which is read again once it is made. */
function useAdminChange<V>(name: string, change: (v: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => void client.invalidateQueries({ queryKey: ["admin", name] }),
  });
}

/** The current page of an operator listing: the error of its last change, its rows, and the pager. */
function PagedTable<T extends { next_cursor?: string }>({ paged: { pages, setPages, list }, head, error, testId, children }: {
  paged: ReturnType<typeof usePaged<T>>;
  head: ReactNode[];
  error?: unknown;
  testId?: string;
  children: (page: T) => ReactNode;
}) {
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorState error={list.error} retry={() => void list.refetch()} />;
  return (
    <Stack>
      <FormError error={error} />
      <DataTable head={head} testId={testId}>
        {children(list.data)}
      </DataTable>
      <Pager pages={pages} setPages={setPages} nextCursor={list.data.next_cursor} />
    </Stack>
  );
}

function Workspaces() {
  const { t } = useTranslation();
  const paged = usePaged("workspaces", (cursor) => unwrap(api.GET("/api/v1/admin/workspaces", { params: { query: { cursor, limit: 50 } } })));
  const setPlan = useAdminChange("workspaces", ({ id, plan }: { id: number; plan: Schemas["Workspace"]["plan"] }) =>
    unwrap(api.PATCH("/api/v1/admin/workspaces/{workspace}", { params: { path: { workspace: id } }, body: { plan } })),
  );
  return (
    <PagedTable paged={paged} head={["ID", t("workspace.name"), t("nav.plan"), t("admin.billing")]} error={setPlan.error} testId="admin-workspaces">
      {(page) =>
        page.workspaces.map((w) => (
          <Table.Tr key={w.id}>
            <Table.Td>{w.id}</Table.Td>
            <Table.Td className="break">{w.name}</Table.Td>
            <Table.Td>
              <NativeSelect
                size="xs"
                aria-label={t("admin.planOf", { name: w.name })}
                value={w.plan}
                onChange={(e) => setPlan.mutate({ id: w.id, plan: e.currentTarget.value as Schemas["Workspace"]["plan"] })}
                data={(["free", "trial", "personal", "enterprise"] as const).map((p) => ({ value: p, label: t(`plan.names.${p}`) }))}
              />
            </Table.Td>
            <Table.Td>
              <BillingCell billing={w.billing} />
            </Table.Td>
          </Table.Tr>
        ))
      }
    </PagedTable>
  );
}

/** A workspace's billing as operators see it: the subscription's state, the plan it grants and until when. */
function BillingCell({ billing }: { billing?: Schemas["BillingSummary"] }) {
  const { t, i18n } = useTranslation();
  if (!billing || billing.status === "none") return <Text size="sm" c="dimmed">{t("billing.statuses.none")}</Text>;
  const color = { active: "teal", past_due: "orange", canceled: "red" }[billing.status];
  const date = (iso: string | null | undefined) => formatDateTime(iso, i18n.resolvedLanguage, "date");
  return (
    <Stack gap={2} data-testid="admin-billing">
      <Group gap={6} wrap="nowrap">
        <Badge size="sm" color={color}>
          {t(`billing.statuses.${billing.status}`)}
        </Badge>
        {billing.billed_plan && <Text size="sm">{t(`plan.names.${billing.billed_plan}`)}</Text>}
      </Group>
      {billing.billed_until && (
        <Text size="xs" c="dimmed">
          {t("admin.billedUntil", { date: date(billing.billed_until) })}
        </Text>
      )}
      {billing.past_due_since && (
        <Text size="xs" c="orange.9">
          {t("admin.pastDueSince", { date: date(billing.past_due_since) })}
        </Text>
      )}
    </Stack>
  );
}

type SystemRole = Schemas["User"]["system_role"];

function Users() {
  const { t } = useTranslation();
  const paged = usePaged("users", (cursor) => unwrap(api.GET("/api/v1/admin/users", { params: { query: { cursor, limit: 50 } } })));
  const setRole = useAdminChange("users", ({ id, role }: { id: number; role: SystemRole }) =>
    unwrap(api.PATCH("/api/v1/admin/users/{user}", { params: { path: { user: id } }, body: { system_role: role } })),
  );
  // A role change asked for in a row's select, waiting for the operator's confirmation.
  const [asked, setAsked] = useState<{ id: number; email: string; role: SystemRole }>();
  return (
    <>
      <PagedTable paged={paged} head={[t("members.email"), t("admin.verified"), t("admin.role")]} error={setRole.error}>
        {(page) =>
          page.users.map((u) => (
            <Table.Tr key={u.id}>
              <Table.Td className="break">{u.email}</Table.Td>
              <Table.Td>{u.email_verified ? <Badge color="green" variant="light">✓</Badge> : <Text size="sm" c="dimmed">–</Text>}</Table.Td>
              <Table.Td>
                <NativeSelect
                  size="xs"
                  aria-label={t("admin.roleOf", { email: u.email })}
                  value={u.system_role}
                  onChange={(e) => setAsked({ id: u.id, email: u.email, role: e.currentTarget.value as SystemRole })}
                  data={(["user", "moderator", "operator"] as const).map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                />
              </Table.Td>
            </Table.Tr>
          ))
        }
      </PagedTable>
      <ConfirmDialog
        opened={!!asked}
        question={asked ? t("admin.roleQuestion", { email: asked.email, role: t(`roles.${asked.role}`) }) : ""}
        detail={asked && t(`admin.roleDetail.${asked.role}`)}
        confirmLabel={t("admin.roleConfirm")}
        color="blue"
        onConfirm={() => asked && setRole.mutate({ id: asked.id, role: asked.role })}
        onClose={() => setAsked(undefined)}
      />
    </>
  );
}

function Audit() {
  const { t } = useTranslation();
  const paged = usePaged("audit", (cursor) => unwrap(api.GET("/api/v1/admin/audit", { params: { query: { cursor, limit: 50 } } })));
  return (
    <PagedTable
      paged={paged}
      head={[t("detail.when"), t("admin.link"), t("admin.action"), t("admin.by"), t("moderation.told"), t("admin.note")]}
      testId="audit"
    >
      {(page) =>
        page.items.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{formatDateTime(d.created_at, i18n.resolvedLanguage)}</Table.Td>
            <Table.Td>
              <Anchor component={RouterLink} to={`/moderation/links/${d.link_id}`} aria-label={t("moderation.openLink", { id: d.link_id })} data-testid="audit-link">
                {d.link_id}
              </Anchor>
            </Table.Td>
            <Table.Td>{t(`moderation.actions.${d.action}`)}</Table.Td>
            <Table.Td className="break">{d.actor?.email ?? t("moderation.worker")}</Table.Td>
            <Table.Td className="break">
              {[d.reason ? t(`moderation.reasons.${d.reason}`, { defaultValue: d.reason }) : "", d.reason_text].filter(Boolean).join(" — ")}
            </Table.Td>
            <Table.Td className="break">{d.note}</Table.Td>
          </Table.Tr>
        ))
      }
    </PagedTable>
  );
}
