// The workspace's links: search, status and domain filters, cursor pages, one-click copy of short URLs,
// and bulk actions on the selected links.
import { Anchor, Button, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconPlus, IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap, type Link } from "../../api/client";
import { DomainRemovedBadge, ModerationBadge, StatusBadge } from "../../components/badges";
import { CopyShort } from "../../components/CopyShort";
import { ConfirmButton } from "../../components/confirm";
import { Empty, FormError, Queried } from "../../components/states";
import { useDomains } from "../../components/useDomains";
import { domainFilterHosts, shortLabel, verifiedHosts } from "../../lib/domains";
import { current, firstPage, next, pageNumber, previous } from "../../lib/pages";
import { useWorkspaceId } from "../../session";

type StatusFilter = "" | "active" | "disabled" | "banned";

export default function LinksPage() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [q, setQ] = useState("");
  const [search] = useDebouncedValue(q.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>("");
  const [domain, setDomain] = useState("");
  const domains = useDomains();
  const [pages, setPages] = useState(firstPage);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const cursor = current(pages);
  const links = useQuery({
    queryKey: [ws, "links", { search, status, domain, cursor }],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/workspaces/{workspace}/links", {
          params: { path: { workspace: ws }, query: { q: search || undefined, status: status || undefined, domain: domain || undefined, cursor: cursor || undefined, limit: 25 } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const reset = () => {
    setPages(firstPage);
    setSelected(new Set());
  };
  const bulk = useMutation({
    mutationFn: async (action: "disable" | "enable" | "delete") => {
      for (const id of selected) {
        const path = { workspace: ws, id };
        if (action === "delete") await unwrap(api.DELETE("/api/v1/workspaces/{workspace}/links/{id}", { params: { path } }));
        else
          await unwrap(
            api.PATCH("/api/v1/workspaces/{workspace}/links/{id}", {
              params: { path },
              body: { status: action === "disable" ? "disabled" : "active" },
            }),
          );
      }
    },
    onSettled: () => {
      setSelected(new Set());
      void client.invalidateQueries({ queryKey: [ws, "links"] });
    },
  });

  const rows: Link[] = links.data?.links ?? [];
  const allSelected = rows.length > 0 && rows.every((l) => selected.has(l.id));
  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  // The filter offers the domains links may be on now: the service's own and the verified ones.
  const verified = verifiedHosts(domains.data?.domains);
  const [ownHost, setOwnHost] = useState("");
  const seenOwn = domainFilterHosts([], rows.filter((l) => !l.domain_removed).map((l) => l.domain), domains.data?.domains)[0];
  if (seenOwn && seenOwn !== ownHost) setOwnHost(seenOwn);
  const filterHosts = domainFilterHosts(verified, ownHost ? [ownHost] : [], domains.data?.domains);
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium" });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t("links.title")}</Title>
        <Button component={RouterLink} to="/links/new" leftSection={<IconPlus size={16} />} data-testid="new-link">
          {t("links.new")}
        </Button>
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
      </Group>
      {selected.size > 0 && (
        <Group gap="xs" className="bulkbar" data-testid="bulk-bar">
          <Text size="sm">{t("links.selected", { count: selected.size })}</Text>
          <Button size="xs" variant="light" onClick={() => bulk.mutate("disable")} loading={bulk.isPending}>
            {t("links.disable")}
          </Button>
          <Button size="xs" variant="light" onClick={() => bulk.mutate("enable")} loading={bulk.isPending}>
            {t("links.enable")}
          </Button>
          <ConfirmButton
            size="xs"
            variant="light"
            loading={bulk.isPending}
            question={t("links.confirmDelete", { count: selected.size })}
            onConfirm={() => bulk.mutate("delete")}
          >
            {t("links.delete")}
          </ConfirmButton>
        </Group>
      )}
      <FormError error={bulk.error} />
      <Queried query={links}>
        {() =>
          rows.length === 0 ? (
            <Empty title={search || status || domain ? t("links.noMatch") : t("links.empty")}>
              {!search && !status && !domain && (
                <Button component={RouterLink} to="/links/new" variant="light">
                  {t("links.createFirst")}
                </Button>
              )}
            </Empty>
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
                    <Table.Th className="desktop-cell">{t("links.state")}</Table.Th>
                    <Table.Th className="desktop-cell">{t("links.created")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((l) => (
                    <Table.Tr key={l.id} data-testid="link-row">
                      <Table.Td>
                        <Checkbox aria-label={t("links.select", { code: l.code })} checked={selected.has(l.id)} onChange={() => toggle(l.id)} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Anchor component={RouterLink} to={`/links/${l.id}`} className="mono" data-testid="link-short">
                            {shortLabel(l)}
                          </Anchor>
                          {l.short_url && <CopyShort url={l.short_url} />}
                        </Group>
                      </Table.Td>
                      <Table.Td className="url-cell">
                        {l.title && <Text size="sm" fw={500} lineClamp={1}>{l.title}</Text>}
                        <Text size="sm" c="dimmed" lineClamp={1} className="break">
                          {l.url}
                        </Text>
                      </Table.Td>
                      <Table.Td className="desktop-cell">
                        <Group gap={4}>
                          <StatusBadge link={l} />
                          <ModerationBadge link={l} />
                          <DomainRemovedBadge link={l} />
                        </Group>
                      </Table.Td>
                      <Table.Td className="desktop-cell">
                        <Text size="sm">{date.format(new Date(l.created_at))}</Text>
                      </Table.Td>
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
