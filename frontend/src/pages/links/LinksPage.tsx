// The workspace's links: search, status, domain, tag and health filters, sorting by date or visits, each link's
// visits with its last 7 days, cursor pages, one-click copy of short URLs, bulk actions on the
// selected links, and "Export CSV" of the links the filters show. A table on wide screens, a list
// of cards on narrow ones.
import { Alert, Anchor, Badge, Button, Checkbox, Group, List, NativeSelect, Paper, Stack, Table, Text, TextInput, Title, UnstyledButton } from "@mantine/core";
import { useDebouncedValue, useMediaQuery } from "@mantine/hooks";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconAlertCircle, IconArrowDown, IconArrowUp, IconArrowsSort, IconPlus, IconSearch } from "@tabler/icons-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, toApiError, unwrap, type Link } from "../../api/client";
import { DomainRemovedBadge, ModerationBadge, StatusBadge, TagBadge } from "../../components/badges";
import { CopyShort } from "../../components/CopyShort";
import { LinksExportButton } from "../../components/ExportButton";
import { ShortLabel } from "../../components/ShortLabel";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { Sparkline } from "../../components/Sparkline";
import { Empty, errorMessage, FormError, Queried } from "../../components/states";
import { useDomains } from "../../components/useDomains";
import { useTags } from "../../components/useTags";
import { HealthBadge } from "./LinkHealth";
import { domainFilterHosts, shortLabel, verifiedHosts } from "../../lib/domains";
import { timeZone } from "../../lib/format";
import { current, firstPage, next, pageNumber, previous } from "../../lib/pages";
import { useWorkspaceId } from "../../session";
import { BulkTagsButton } from "./BulkTags";
import { BulkJobProgress } from "./BulkJobProgress";
import { changeOf, filterActive, jobFilter, jobRequest, type BulkAction } from "../../lib/bulkJobs";

// The row menu (duplicate, archive, share, delete) loads once a list is shown.
const LinkActions = lazy(() => import("./LinkActions"));
type ArchivedFilter = "false" | "true" | "all";

type StatusFilter = "" | "active" | "disabled" | "banned" | "held";
/** The API's orders: by creation or by visits, "-" for the largest first. */
type Sort = "-created" | "created" | "-visits" | "visits";
type SortKey = "created" | "visits";

const sortNames: Record<Sort, string> = { "-created": "newest", created: "oldest", "-visits": "mostVisits", visits: "fewestVisits" };

/** The narrow screens that get cards instead of the table: Mantine's sm, as in app.css. */
const narrow = "(max-width: 47.99em)";

export default function LinksPage() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [q, setQ] = useState("");
  const [search] = useDebouncedValue(q.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>("");
  const [domain, setDomain] = useState("");
  const [tag, setTag] = useState("");
  const [health, setHealth] = useState<"" | "ok" | "broken">("");
  const [archived, setArchived] = useState<ArchivedFilter>("false");
  const tags = useTags();
  const colors = new Map((tags.data?.tags ?? []).map((tg) => [tg.name, tg.color]));
  const tagNames = (tags.data?.tags ?? []).map((tg) => tg.name);
  const [sort, setSort] = useState<Sort>("-created");
  const cards = useMediaQuery(narrow, false, { getInitialValueInEffect: false });
  const domains = useDomains();
  const [pages, setPages] = useState(firstPage);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  // Every link the filter matches is selected, not only the page's: the bar's actions run as a
  // bulk job, whose progress jobId shows.
  const [matching, setMatching] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const listFilter = { search, status, domain, tag, health, archived };
  const cursor = current(pages);
  const links = useQuery({
    queryKey: [ws, "links", { search, status, domain, tag, health, archived, sort, cursor }],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/workspaces/{workspace}/links", {
          params: {
            path: { workspace: ws },
            query: {
              q: search || undefined,
              status: status || undefined,
              domain: domain || undefined,
              tag: tag ? [tag] : undefined,
              health: health || undefined,
              archived: archived === "false" ? undefined : archived,
              sort: sort === "-created" ? undefined : sort,
              with: "sparkline",
              tz: timeZone(),
              cursor: cursor || undefined,
              limit: 25,
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const reset = () => {
    setPages(firstPage);
    setSelected(new Set());
    setMatching(false);
  };
  // The links a bulk action refused, each with its reason; shown until the next action.
  const [refused, setRefused] = useState<{ id: number; label: string; message: string }[]>([]);
  const bulk = useMutation({
    mutationFn: async (action: BulkAction) => {
      setRefused([]);
      if (matching) {
        const job = await unwrap(
          api.POST("/api/v1/workspaces/{workspace}/links/bulk-jobs", { params: { path: { workspace: ws } }, body: jobRequest(action, jobFilter(listFilter)) }),
        );
        setJobId(job.id);
        return 0; // the job's progress says the rest
      }
      if (action.kind === "delete") {
        for (const id of selected) {
          await unwrap(api.DELETE("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id } } }));
        }
        return selected.size;
      }
      // One call for every selected link, answered link by link: a link banned by the moderation
      // keeps its status, a link already carrying 20 tags takes no more.
      const set = changeOf(action) ?? {};
      const { results } = await unwrap(
        api.PATCH("/api/v1/workspaces/{workspace}/links", { params: { path: { workspace: ws } }, body: { ids: [...selected], set } }),
      );
      const labels = new Map(rows.map((l) => [l.id, shortLabel(l)]));
      const failed = results.filter((r) => r.error);
      setRefused(
        failed.map((r) => ({
          id: r.id,
          label: labels.get(r.id) ?? `#${r.id}`,
          message: errorMessage(toApiError(0, { error: r.error }), t("common.unexpected")),
        })),
      );
      return results.length - failed.length;
    },
    onSuccess: (done, action) => {
      const key = action.kind === "add" ? "tags_added" : action.kind === "remove" ? "tags_removed" : action.kind;
      if (done > 0) notifyDone(t(`toasts.links_${key}`, { count: done }));
    },
    onSettled: () => {
      setSelected(new Set());
      setMatching(false);
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      void client.invalidateQueries({ queryKey: [ws, "tags"] });
    },
  });

  const rows: Link[] = links.data?.links ?? [];
  const allSelected = rows.length > 0 && rows.every((l) => selected.has(l.id));
  const toggle = (id: number) => {
    setMatching(false);
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  };
  // The filter offers the domains links may be on now: the service's own and the verified ones.
  const verified = verifiedHosts(domains.data?.domains);
  const [ownHost, setOwnHost] = useState("");
  const seenOwn = domainFilterHosts([], rows.filter((l) => !l.domain_removed).map((l) => l.domain), domains.data?.domains)[0];
  if (seenOwn && seenOwn !== ownHost) setOwnHost(seenOwn);
  const filterHosts = domainFilterHosts(verified, ownHost ? [ownHost] : [], domains.data?.domains);
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium" });
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const sortBy = (s: Sort) => {
    setSort(s);
    reset();
  };
  // A column's header sorts by it, largest first, and the other way round on a second click.
  const sortHeader = (key: SortKey, label: string) => {
    const active = sort === key || sort === `-${key}`;
    const descending = sort === `-${key}`;
    return (
      <Table.Th aria-sort={active ? (descending ? "descending" : "ascending") : "none"}>
        <UnstyledButton className="sort-header" onClick={() => sortBy(descending ? key : `-${key}`)} data-testid={`sort-${key}`}>
          {label}
          {!active ? <IconArrowsSort size={14} aria-hidden /> : descending ? <IconArrowDown size={14} aria-hidden /> : <IconArrowUp size={14} aria-hidden />}
        </UnstyledButton>
      </Table.Th>
    );
  };
  // A link's visits with its last 7 days; on a card, with their unit (no column names them).
  const visits = (l: Link, unit: boolean): ReactNode => {
    const n = l.visits ?? 0;
    return (
      <Group gap={8} wrap="nowrap">
        {l.visits_7d && <Sparkline values={l.visits_7d} label={t("links.last7", { days: l.visits_7d.map((d) => number.format(d)).join(", ") })} />}
        <Text size="sm" fw={500} className="nowrap" data-testid="link-visits">
          {unit ? t("links.visitsCount", { count: n, n: number.format(n) }) : number.format(n)}
        </Text>
      </Group>
    );
  };
  const actions = (l: Link) => (
    <Suspense fallback={null}>
      <LinkActions link={l} />
    </Suspense>
  );
  const shortCell = (l: Link) => (
    <Group gap={4} wrap="nowrap" className="minw0">
      <Anchor component={RouterLink} to={`/links/${l.id}`} className="mono break" data-testid="link-short">
        <ShortLabel link={l} />
      </Anchor>
      {l.short_url && <CopyShort url={l.short_url} />}
    </Group>
  );
  const badges = (l: Link) => (
    <Group gap={4}>
      <StatusBadge link={l} />
      <ModerationBadge link={l} />
      <DomainRemovedBadge link={l} />
      <HealthBadge link={l} />
      {l.archived && (
        <Badge size="sm" variant="light" color="gray" data-testid="archived-badge">
          {t("linkTools.archivedBadge")}
        </Badge>
      )}
      {(l.tags ?? []).map((name) => (
        <TagBadge key={name} name={name} color={colors.get(name)} testId="link-tag" />
      ))}
    </Group>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t("links.title")}</Title>
        <Group gap="xs">
          <LinksExportButton
            filter={{
              q: search || undefined,
              status: status || undefined,
              domain: domain || undefined,
              tag: tag ? [tag] : undefined,
              health: health || undefined,
              archived,
            }}
          />
          <Button component={RouterLink} to="/links/new" leftSection={<IconPlus size={16} />} data-testid="new-link">
            {t("links.new")}
          </Button>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end" className="filters">
        <TextInput
          className="grow"
          leftSection={<IconSearch size={16} />}
          placeholder={t("links.search")}
          aria-label={t("links.search")}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            reset();
          }}
          data-testid="links-search"
        />
        <NativeSelect
          aria-label={t("links.statusFilter")}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as StatusFilter);
            reset();
          }}
          data={[
            { value: "", label: t("links.anyStatus") },
            { value: "active", label: t("links.status.active") },
            { value: "disabled", label: t("links.status.disabled") },
            { value: "banned", label: t("links.status.banned") },
            { value: "held", label: t("links.status.held") },
          ]}
          data-testid="links-status"
        />
        {verified.length > 0 && (
          <NativeSelect
            aria-label={t("links.domainFilter")}
            value={domain}
            onChange={(e) => {
              setDomain(e.currentTarget.value);
              reset();
            }}
            data={[{ value: "", label: t("links.anyDomain") }, ...filterHosts.map((h) => ({ value: h, label: h }))]}
            data-testid="links-domain"
          />
        )}
        {(tags.data?.tags.length ?? 0) > 0 && (
          <NativeSelect
            aria-label={t("links.tagFilter")}
            value={tag}
            onChange={(e) => {
              setTag(e.currentTarget.value);
              reset();
            }}
            data={[{ value: "", label: t("links.anyTag") }, ...(tags.data?.tags ?? []).map((tg) => ({ value: tg.name, label: tg.name }))]}
            data-testid="links-tag"
          />
        )}
        <NativeSelect
          aria-label={t("linkHealth.filter")}
          value={health}
          onChange={(e) => {
            setHealth(e.currentTarget.value as "" | "ok" | "broken");
            reset();
          }}
          data={[
            { value: "", label: t("linkHealth.any") },
            { value: "broken", label: t("linkHealth.broken") },
            { value: "ok", label: t("linkHealth.ok") },
          ]}
          data-testid="links-health"
        />
        <NativeSelect
          aria-label={t("linkTools.archivedFilter")}
          value={archived}
          onChange={(e) => {
            setArchived(e.currentTarget.value as ArchivedFilter);
            reset();
          }}
          data={[
            { value: "false", label: t("linkTools.notArchived") },
            { value: "true", label: t("linkTools.archivedOnly") },
            { value: "all", label: t("linkTools.archivedAll") },
          ]}
          data-testid="links-archived"
        />
        {cards && (
          <NativeSelect
            aria-label={t("links.sortBy")}
            value={sort}
            onChange={(e) => sortBy(e.currentTarget.value as Sort)}
            data={(Object.keys(sortNames) as Sort[]).map((s) => ({ value: s, label: t(`links.sort.${sortNames[s]}`) }))}
            data-testid="links-sort"
          />
        )}
      </Group>
      {selected.size > 0 && (
        <Group gap="xs" className="bulkbar" data-testid="bulk-bar">
          <Text size="sm" data-testid="bulk-selected">
            {matching ? t("bulkJobs.allMatching") : t("links.selected", { count: selected.size })}
          </Text>
          {!matching && allSelected && filterActive(listFilter) && (
            <Button size="xs" variant="subtle" onClick={() => setMatching(true)} data-testid="select-all-matching">
              {t("bulkJobs.selectAllMatching")}
            </Button>
          )}
          <Button size="xs" variant="light" onClick={() => bulk.mutate({ kind: "disable" })} loading={bulk.isPending}>
            {t("links.disable")}
          </Button>
          <Button size="xs" variant="light" onClick={() => bulk.mutate({ kind: "enable" })} loading={bulk.isPending}>
            {t("links.enable")}
          </Button>
          <ConfirmButton
            size="xs"
            variant="light"
            loading={bulk.isPending}
            question={matching ? t("bulkJobs.confirmDelete") : t("links.confirmDelete", { count: selected.size })}
            onConfirm={() => bulk.mutate({ kind: "delete" })}
          >
            {t("links.delete")}
          </ConfirmButton>
          <Button size="xs" variant="light" onClick={() => bulk.mutate({ kind: "archive" })} loading={bulk.isPending} data-testid="bulk-archive">
            {t("bulkJobs.archive")}
          </Button>
          <Button size="xs" variant="light" onClick={() => bulk.mutate({ kind: "unarchive" })} loading={bulk.isPending} data-testid="bulk-unarchive">
            {t("bulkJobs.unarchive")}
          </Button>
          <BulkTagsButton mode="add" suggestions={tagNames} loading={bulk.isPending} onApply={(names) => bulk.mutate({ kind: "add", names })} />
          <BulkTagsButton mode="remove" suggestions={tagNames} loading={bulk.isPending} onApply={(names) => bulk.mutate({ kind: "remove", names })} />
        </Group>
      )}
      <FormError error={bulk.error} />
      {jobId !== null && <BulkJobProgress key={jobId} id={jobId} onClose={() => setJobId(null)} />}
      {refused.length > 0 && (
        <Alert color="orange" icon={<IconAlertCircle size={18} />} title={t("links.refused", { count: refused.length })} role="alert" data-testid="bulk-refused" withCloseButton closeButtonLabel={t("common.closeNotice")} onClose={() => setRefused([])}>
          <List size="sm">
            {refused.map((r) => (
              <List.Item key={r.id} data-testid="bulk-refused-row">
                <Text span size="sm" className="mono">
                  {r.label}
                </Text>
                : {r.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Queried query={links}>
        {() =>
          rows.length === 0 ? (
            <Empty title={search || status || domain || tag || health ? t("links.noMatch") : t("links.empty")}>
              {!search && !status && !domain && !tag && !health && (
                <Button component={RouterLink} to="/links/new" variant="light">
                  {t("links.createFirst")}
                </Button>
              )}
            </Empty>
          ) : cards ? (
            <Stack gap="xs" data-testid="links-cards">
              <Checkbox
                label={t("links.selectAll")}
                checked={allSelected}
                indeterminate={!allSelected && rows.some((l) => selected.has(l.id))}
                onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((l) => l.id)))}
              />
              {rows.map((l) => (
                <Paper key={l.id} withBorder p="sm" className="link-card" data-testid="link-row">
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Checkbox mt={4} aria-label={t("links.select", { code: l.code })} checked={selected.has(l.id)} onChange={() => toggle(l.id)} />
                    <Stack gap={4} className="grow">
                      {shortCell(l)}
                      {l.title && (
                        <Text size="sm" fw={500} className="break">
                          {l.title}
                        </Text>
                      )}
                      <Text size="sm" c="dimmed" className="break" data-testid="link-destination">
                        {l.url}
                      </Text>
                      {badges(l)}
                      <Group justify="space-between" gap="xs">
                        <Text size="xs" c="dimmed" data-testid="link-date">
                          {t("links.createdOn", { date: date.format(new Date(l.created_at)) })}
                        </Text>
                        {visits(l, true)}
                        {actions(l)}
                      </Group>
                    </Stack>
                  </Group>
                </Paper>
              ))}
            </Stack>
          ) : (
            <div className="table-wrap">
              <Table highlightOnHover verticalSpacing="xs" data-testid="links-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={36}>
                      <Checkbox
                        aria-label={t("links.selectAll")}
                        checked={allSelected}
                        indeterminate={!allSelected && rows.some((l) => selected.has(l.id))}
                        onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((l) => l.id)))}
                      />
                    </Table.Th>
                    <Table.Th>{t("links.short")}</Table.Th>
                    <Table.Th>{t("links.destination")}</Table.Th>
                    {sortHeader("visits", t("links.visits"))}
                    <Table.Th>{t("links.state")}</Table.Th>
                    {sortHeader("created", t("links.created"))}
                    <Table.Th w={44} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((l) => (
                    <Table.Tr key={l.id} data-testid="link-row">
                      <Table.Td>
                        <Checkbox aria-label={t("links.select", { code: l.code })} checked={selected.has(l.id)} onChange={() => toggle(l.id)} />
                      </Table.Td>
                      <Table.Td>{shortCell(l)}</Table.Td>
                      <Table.Td className="url-cell">
                        {l.title && <Text size="sm" fw={500} lineClamp={1}>{l.title}</Text>}
                        <Text size="sm" c="dimmed" lineClamp={1} className="break" title={l.url} data-testid="link-destination">
                          {l.url}
                        </Text>
                      </Table.Td>
                      <Table.Td>{visits(l, false)}</Table.Td>
                      <Table.Td>{badges(l)}</Table.Td>
                      <Table.Td>
                        <Text size="sm" className="nowrap" data-testid="link-date">
                          {date.format(new Date(l.created_at))}
                        </Text>
                      </Table.Td>
                      <Table.Td>{actions(l)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          )
        }
      </Queried>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t("links.page", { page: pageNumber(pages) })}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={pageNumber(pages) === 1} onClick={() => setPages(previous(pages))}>
            {t("common.previous")}
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!links.data?.next_cursor}
            onClick={() => setPages(next(pages, links.data?.next_cursor ?? ""))}
            data-testid="next-page"
          >
            {t("common.next")}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
