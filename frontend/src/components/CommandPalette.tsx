// The command palette (Ctrl+K, ⌘K): go to a page, create a link, or find a link by its URL,
// code or title. Arrow keys move through the items, Enter opens one, Escape closes.
import { Modal, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, unwrap } from "../api/client";
import { shortLabel } from "../lib/domains";
import { paletteMatches, type PaletteItem } from "../lib/shortcuts";
import { useWorkspaceId } from "../session";

const pages = ["links", "dashboard", "bulk", "imports", "members", "domains", "tags", "keys", "webhooks", "plan", "settings"];

export default function CommandPalette({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ws = useWorkspaceId();
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const [search] = useDebouncedValue(q.trim(), 200);
  const found = useQuery({
    queryKey: [ws, "links", "palette", search],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links", { params: { path: { workspace: ws }, query: { q: search, limit: 5, archived: "all" } } })),
    enabled: search.length > 0,
  });
  const fixed: PaletteItem[] = [
    { id: "create", label: t("linkTools.paletteCreate"), to: "/links/new" },
    ...pages.map((p) => ({ id: p, label: t(`nav.${p}`), to: `/${p}` })),
  ];
  const items = [
    ...paletteMatches(fixed, q),
    ...(found.data?.links ?? []).map((l) => ({ id: `link-${l.id}`, label: `${shortLabel(l)} · ${l.title || l.url}`, to: `/links/${l.id}` })),
  ];
  const open = (it: PaletteItem | undefined) => {
    if (!it) return;
    onClose();
    void navigate(it.to);
  };
  return (
    // lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses.
    <Modal opened onClose={onClose} title={t("linkTools.palette")} lockScroll={false} size="lg" data-testid="command-palette">
      <Stack gap="xs">
        <TextInput
          data-autofocus
          leftSection={<IconSearch size={16} />}
          placeholder={t("linkTools.paletteSearch")}
          aria-label={t("linkTools.paletteSearch")}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") setActive((a) => Math.min(a + 1, items.length - 1));
            else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
            else if (e.key === "Enter") open(items[active]);
            else return;
            e.preventDefault();
          }}
          data-testid="palette-input"
        />
        <Stack gap={2} role="listbox" aria-label={t("linkTools.palette")}>
          {items.length === 0 && (
            <Text size="sm" c="dimmed">
              {t("linkTools.paletteEmpty")}
            </Text>
          )}
          {items.map((it, i) => (
            <UnstyledButton
              key={it.id}
              role="option"
              aria-selected={i === active}
              className={i === active ? "palette-item palette-active" : "palette-item"}
              onMouseEnter={() => setActive(i)}
              onClick={() => open(it)}
              data-testid="palette-item"
            >
              <Text size="sm" truncate="end">
                {it.label}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      </Stack>
    </Modal>
  );
}
